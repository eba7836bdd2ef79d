import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIELD_BY_KEY, FIELDS, type FieldDef } from '../fields/catalogue.ts';
import { sha256 } from '../hash/sha256.ts';
import { createEventWriter } from './event-writer.ts';

/**
 * The plain way to build an event (an object, then JSON.stringify): the writer's text must be these exact
 * bytes, because delivery hashes batches to check a resumed send carries the same data.
 */
function reference(eff: Record<string, string>): string {
  const event: Record<string, unknown> & { user_data: Record<string, unknown> } = {
    event_name: eff.event_name ?? '',
    event_time: Number(eff.event_time),
    action_source: eff.action_source ?? '',
    event_id: eff.event_id ?? '',
    user_data: {},
  };
  const typed = (key: string, def: FieldDef, value: string): unknown => {
    if (key === 'data_processing_options') return value ? value.split(',') : [];
    if (def.type === 'json') return JSON.parse(value) as unknown;
    if (def.type === 'number' || def.type === 'integer' || def.type === 'timestamp') return Number(value);
    if (def.type === 'boolean') return value === 'true';
    if (def.type === 'list') return value.split(',');
    if (def.type === 'enum' && def.placement === 'app_data') return Number(value);
    return value;
  };
  for (const key in eff) {
    if (['event_name', 'event_time', 'action_source', 'event_id'].includes(key)) continue;
    const def = FIELD_BY_KEY.get(key);
    if (!def) continue;
    const value = eff[key]!;
    if (def.hashed) {
      event.user_data[def.metaKey] = [/^[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : sha256(value)];
      continue;
    }
    const v = typed(key, def, value);
    if (def.placement === 'top') event[def.metaKey] = v;
    else if (def.placement === 'user_data') event.user_data[def.metaKey] = v;
    else {
      const section = (event[def.placement] ??= {}) as Record<string, unknown>;
      const [parent, child] = def.metaKey.split('.');
      if (child) ((section[parent!] ??= {}) as Record<string, unknown>)[child] = v;
      else section[parent!] = v;
    }
  }
  return JSON.stringify(event);
}

// Values that stress the JSON text: quotes, backslashes, control characters, lone and paired surrogates,
// numbers that print in exponent form, non-numbers and digests in capitals.
const tricky = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('"', '\\', '\u0000', '\u001f', '\ud800', '\udc00x', '😀', '\u2028', 'a,b,,c', ''),
  fc.double().map(String),
  fc.integer().map(String),
  fc.stringMatching(/^-?\d{1,12}(?:\.\d{1,8})?$/),
  fc.constantFrom('1e21', '0.0000001', '-0', 'NaN', 'Infinity', '007', '12.50', 'true', 'false'),
  fc.stringMatching(/^[0-9a-fA-F]{64}$/),
);
// contents and extinfo hold JSON text the validator wrote (their own tests below).
const writable = FIELDS.filter((f) => f.type !== 'json');
const row = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...writable.map((f) => f.key)), tricky), {
    selector: ([k]) => k,
    maxLength: 20,
  })
  .map((pairs) => Object.fromEntries(pairs));

describe('createEventWriter', () => {
  it('writes exactly what JSON.stringify writes for the same event, whatever the values', () => {
    fc.assert(
      fc.property(row, (eff) => {
        const out = createEventWriter()({ effectiveRow: eff });
        expect(out.json).toBe(reference(eff));
        expect(out.event_name).toBe(eff.event_name ?? '');
        expect(out.event_id).toBe(eff.event_id ?? '');
      }),
      { numRuns: 1000 },
    );
  });

  it('writes each row right when one writer meets rows of different fields and orders', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 2, maxLength: 8 }), (rows) => {
        const write = createEventWriter();
        for (const eff of rows) expect(write({ effectiveRow: eff }).json).toBe(reference(eff));
      }),
      { numRuns: 250 },
    );
  });

  it("writes remembered members right when values repeat across one writer's rows, in any place", () => {
    // Few values per key, so the memos (hashed keys, and enumerated members such as currency) answer most rows;
    // the keys come in any order, so a member is sometimes its object's first and sometimes not.
    const keys = ['currency', 'content_type', 'delivery_category', 'value', 'order_id', 'first_name', 'city'];
    keys.push('advertiser_tracking_enabled', 'application_tracking_enabled', 'travel_class');
    const values = fc.constantFrom('USD', 'usd', '"', '\\', '', '1', '0', 'product', '\ud800', '12.50');
    const repeating = fc
      .uniqueArray(fc.tuple(fc.constantFrom(...keys), values), { selector: ([k]) => k, maxLength: 8 })
      .map((pairs) => Object.fromEntries(pairs));
    fc.assert(
      fc.property(fc.array(repeating, { minLength: 2, maxLength: 30 }), (rows) => {
        const write = createEventWriter();
        for (const eff of rows) expect(write({ effectiveRow: eff }).json).toBe(reference(eff));
      }),
      { numRuns: 500 },
    );
  });

  it('writes contents as Meta objects', () => {
    const eff = { event_name: 'Purchase', contents: '[{"id":"x","quantity":2}]' };
    expect(createEventWriter()({ effectiveRow: eff }).json).toBe(reference(eff));
  });

  it('writes extinfo as an array of 16 texts in app_data', () => {
    const values = ['i2', 'com.x', '1.0', '1.0 long', '17.4', 'iPhone5,1', ...Array<string>(10).fill('')];
    const eff = { event_name: 'Purchase', extinfo: JSON.stringify(values) };
    const json = createEventWriter()({ effectiveRow: eff }).json;
    expect(json).toBe(reference(eff));
    expect(JSON.parse(json).app_data.extinfo).toEqual(values);
  });

  it('gives a repeated value the same hash from its memo, and keeps files apart', () => {
    const write = createEventWriter();
    const a = write({ effectiveRow: { first_name: 'ann', city: 'paris' } }).json;
    expect(write({ effectiveRow: { first_name: 'ann', city: 'paris' } }).json).toBe(a);
    expect(createEventWriter()({ effectiveRow: { first_name: 'ann', city: 'paris' } }).json).toBe(a);
    expect(a).toContain(sha256('ann'));
  });

  it('writes a remembered member right whether it opens user_data or follows another member', () => {
    const write = createEventWriter();
    const rows: Record<string, string>[] = [
      { first_name: 'ann', last_name: 'lee' },
      { email: 'ann@example.com', first_name: 'ann', last_name: 'lee' },
      { last_name: 'lee', first_name: 'ann' },
    ];
    for (const eff of rows) expect(write({ effectiveRow: eff }).json).toBe(reference(eff));
  });

  it('only meets Meta keys that need no escaping', () => {
    for (const f of FIELDS) expect(f.metaKey).toMatch(/^\w+(?:\.\w+)?$/);
  });
});
