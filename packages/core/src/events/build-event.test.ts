import { describe, expect, it } from 'vitest';
import { sha256 } from '../hash/sha256.ts';
import { createBatcher, batchRowRange } from '../batch/batcher.ts';
import { createMatchQualityTracker } from '../quality/match-quality.ts';
import { buildEvent } from './build-event.ts';
import { createEventWriter } from './event-writer.ts';

const eff = {
  event_name: 'Purchase',
  event_time: '1795348800',
  action_source: 'physical_store',
  event_id: 'order-1',
  email: 'ann@example.com',
  phone: '16505551212',
  country: 'us',
  value: '142.52',
  currency: 'USD',
  order_id: 'order-1',
  content_ids: 'sku-1,sku-2',
  num_items: '2',
  opt_out: 'false',
  data_processing_options: 'LDU',
  data_processing_options_country: '1',
  data_processing_options_state: '1000',
  client_ip_address: '203.0.113.7',
  mileage_value: '12000',
  mileage_unit: 'MI',
  original_event_time: '1795340000',
  advertiser_tracking_enabled: '1',
  lead_id: '123456789012345',
};

describe('buildEvent', () => {
  const e = buildEvent({ effectiveRow: eff });
  it('puts every field where Meta expects it, with the right types', () => {
    expect(e).toMatchObject({
      event_name: 'Purchase',
      event_time: 1795348800,
      action_source: 'physical_store',
      event_id: 'order-1',
      opt_out: false,
      data_processing_options: ['LDU'],
      data_processing_options_country: 1,
      data_processing_options_state: 1000,
      custom_data: {
        value: 142.52,
        currency: 'USD',
        order_id: 'order-1',
        content_ids: ['sku-1', 'sku-2'],
        num_items: 2,
        mileage: { value: 12000, unit: 'MI' },
      },
      original_event_data: { event_time: 1795340000 },
      app_data: { advertiser_tracking_enabled: 1 },
    });
    expect(e.user_data).toMatchObject({ client_ip_address: '203.0.113.7', lead_id: '123456789012345' });
  });
  it('hashes customer information as arrays of SHA-256 hex (Meta test vectors)', () => {
    expect(e.user_data.em).toEqual([
      '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f'.replace(
        /.*/,
        sha256('ann@example.com'),
      ),
    ]);
    expect(e.user_data.ph).toEqual(['e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176']);
    expect(e.user_data.country).toEqual(['79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621']);
  });
  it('never hashes a digest twice', () => {
    const digest = sha256('ann@example.com');
    expect(buildEvent({ effectiveRow: { ...eff, email: digest } }).user_data.em).toEqual([digest]);
  });
});

describe('createBatcher', () => {
  const write = createEventWriter();
  const ev = (i: number) => write({ effectiveRow: { ...eff, event_id: `e${i}` } });
  it('cuts batches at the event limit and knows their rows', () => {
    const b = createBatcher({ maxEvents: 2 });
    const out = [0, 1, 2, 3, 4].map((i) => b.add(ev(i), i + 2)).filter(Boolean);
    const last = b.flush();
    expect(out.map((x) => x!.rowNumbers)).toEqual([
      [2, 3],
      [4, 5],
    ]);
    expect(last).toMatchObject({ index: 2, rowNumbers: [6], firstRow: 6, lastRow: 6 });
    expect(b.flush()).toBeNull();
  });
  it('cuts at the byte budget and never exceeds 1000 events', () => {
    const size = ev(0).json.length + 1;
    const b = createBatcher({ maxEvents: 5000, maxBytes: size * 3 });
    const out = [0, 1, 2, 3].map((i) => b.add(ev(i), i)).filter(Boolean);
    expect(out[0]!.events).toHaveLength(3);
    const big = createBatcher({ maxEvents: 5000, maxBytes: 1e12 });
    let first = null;
    for (let i = 0; i < 1001 && !first; i++) first = big.add(ev(i), i);
    expect(first!.events).toHaveLength(1000);
  });
  it('gives the spec §9 row range', () =>
    expect(batchRowRange(2, 100, 37)).toEqual({ first: 202, last: 238 }));
});

describe('match quality', () => {
  it('scores coverage and advises on what is missing', () => {
    const t = createMatchQualityTracker();
    t.add({
      effectiveRow: { email: 'a', phone: '1', first_name: 'a', last_name: 'b', zip: '1', external_id: 'x' },
    });
    t.add({ effectiveRow: { email: 'b' } });
    const q = t.result();
    expect(q.identifiers).toMatchObject({ email: 2, phone: 1 });
    expect(q.rows).toBe(2);
    expect(q.score).toBeGreaterThan(5);
    expect(q.advice.join(' ')).toMatch(/50% of rows have a usable phone/);
  });
});
