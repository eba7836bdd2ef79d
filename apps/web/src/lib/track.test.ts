import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalyticsBatch } from '@backsignal/contracts';
import type * as Track from './track.ts';

interface Sent {
  events: { name: string; props: Record<string, unknown>; path: string; ts: number }[];
}

let beacons: Promise<Sent>[];
let mod: typeof Track;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  beacons = [];
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: vi.fn((_url: string, blob: Blob) => {
      beacons.push(blob.text().then((t) => JSON.parse(t) as Sent));
      return true;
    }),
  });
  mod = await import('./track.ts');
});
afterEach(() => vi.useRealTimers());

const sent = async () => Promise.all(beacons);

describe('track', () => {
  it('sends a queue longer than one batch in several batches, none over the limit', async () => {
    for (let i = 0; i < 120; i++) mod.track('cta_clicked', { label: `b${i}`, position: 'hero' });
    await vi.advanceTimersByTimeAsync(3000);
    await vi.advanceTimersByTimeAsync(2000);
    const batches = await sent();
    expect(batches.map((b) => b.events.length)).toEqual([20, 20, 20, 20, 20, 20]);
    expect(batches.flatMap((b) => b.events.map((e) => e.props.label))).toEqual(
      Array.from({ length: 120 }, (_, i) => `b${i}`),
    );
  });

  it('sends everything at once when the page is hidden', async () => {
    for (let i = 0; i < 75; i++) mod.track('demo_viewed');
    window.dispatchEvent(new Event('pagehide'));
    expect((await sent()).map((b) => b.events.length)).toEqual([20, 20, 20, 15]);
  });

  it('cuts long values and keys so the server accepts the batch', async () => {
    mod.track('automation_signup_failed', {
      error_message: 'x'.repeat(1000),
      ['k'.repeat(80)]: 'v',
      gone: undefined,
      a: 1,
      b: 2,
      c: 3,
      d: 4,
      e: 5,
    });
    await vi.advanceTimersByTimeAsync(3000);
    const [batch] = await sent();
    const props = batch!.events[0]!.props;
    expect((props.error_message as string).length).toBe(200);
    // At most six properties: the first six kept.
    expect(Object.keys(props)).toEqual(['error_message', 'k'.repeat(40), 'a', 'b', 'c', 'd']);
    expect(AnalyticsBatch.safeParse(batch).success).toBe(true);
  });
});
