import { describe, expect, it } from 'vitest';
import { RunThrottle } from './delivery.throttle.ts';

const policy = { baseMs: 10_000, maxWaitMs: 300_000, giveUpMs: 3_600_000 };
const at = (ms: number | null) => (ms === null ? null : new Date(ms));
const throttle = (until: number | null, since: number | null) =>
  new RunThrottle(policy, { throttled_until: at(until), throttled_since: at(since) });

describe('RunThrottle', () => {
  it('holds nothing back when the run was never refused', () => {
    expect(throttle(null, null).wait(1_000)).toBe(0);
  });

  it('holds the run back until its "not before"', () => {
    const t = throttle(50_000, 10_000);
    expect(t.wait(20_000)).toBe(30_000);
    expect(t.wait(50_000)).toBe(0);
  });

  it('stops holding back once the run has been refused for the give-up time', () => {
    const t = throttle(10_000 + 3_600_000 + 60_000, 10_000);
    expect(t.givenUp(10_000 + 3_599_999)).toBe(false);
    expect(t.wait(10_000 + 3_599_999)).toBe(60_001);
    expect(t.givenUp(10_000 + 3_600_000)).toBe(true);
    expect(t.wait(10_000 + 3_600_000)).toBe(0);
  });

  it("takes other workers' view when the run is read again", () => {
    const t = throttle(null, null);
    t.update({ throttled_until: at(90_000), throttled_since: at(80_000) });
    expect(t.wait(85_000)).toBe(5_000);
  });

  it('asks for the stored throttle to be cleared once, on the first accepted batch', () => {
    const t = throttle(5_000, 1_000);
    expect(t.accepted()).toBe(true);
    expect(t.accepted()).toBe(false);
    expect(throttle(null, null).accepted()).toBe(false);
  });
});
