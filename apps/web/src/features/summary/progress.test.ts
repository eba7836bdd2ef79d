import { describe, expect, it } from 'vitest';
import type { DeliveryProgress } from '@backsignal/contracts';
import { progressPercent, timeLeftText } from './progress.ts';

const progress = (p: Partial<DeliveryProgress>): DeliveryProgress => ({
  totalEvents: null,
  batchesSent: 0,
  batchesFailed: 0,
  batchesRemaining: 0,
  eventsSent: 0,
  eventsFailed: 0,
  eventsRemaining: null,
  eventsSkipped: 0,
  secondsLeft: null,
  ...p,
});

describe('progressPercent', () => {
  it('measures against the expected total while sending, never showing 100% before the end', () => {
    expect(
      progressPercent({
        status: 'running',
        progress: progress({ totalEvents: 1000, eventsSent: 200, eventsFailed: 50 }),
      }),
    ).toBe(25);
    expect(
      progressPercent({ status: 'running', progress: progress({ totalEvents: 1000, eventsSent: 1000 }) }),
    ).toBe(99);
  });

  it('stays empty while the total is unknown instead of treating what is done as the total', () => {
    expect(progressPercent({ status: 'running', progress: progress({ eventsSent: 300 }) })).toBe(0);
  });

  it('is full once the run completed, and shows how far a stopped run got', () => {
    expect(progressPercent({ status: 'completed', progress: progress({ totalEvents: 0 }) })).toBe(100);
    expect(
      progressPercent({
        status: 'completed_with_errors',
        progress: progress({ totalEvents: 10, eventsSent: 9, eventsFailed: 1 }),
      }),
    ).toBe(100);
    expect(
      progressPercent({ status: 'stopped', progress: progress({ totalEvents: 1000, eventsSent: 100 }) }),
    ).toBe(10);
  });

  it('stays empty for a run that stopped before its file was read to the end (no total)', () => {
    expect(progressPercent({ status: 'stopped', progress: progress({ eventsFailed: 100 }) })).toBe(0);
  });
});

describe('timeLeftText', () => {
  it.each([
    [null, null],
    [20, 'Less than a minute left'],
    [90, 'About 2 minutes left'],
    [60, 'About 1 minute left'],
    [5400, 'About 1.5 hours left'],
  ])('%s s → %s', (s, text) => expect(timeLeftText(s)).toBe(text));
});
