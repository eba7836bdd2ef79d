import { describe, expect, it } from 'vitest';
import type { DeliverySummary } from '../src/api-types.ts';
import { exitCodeOf, outcomeLines, outcomeOf } from '../src/outcome.ts';

const file = { id: 'u1', fileName: 'leads.csv', rowCount: 100 };
const summary = (over: Partial<DeliverySummary> = {}, progress: Partial<DeliverySummary['progress']> = {}) =>
  ({
    runId: 'r1',
    status: 'completed',
    totalSent: 100,
    totalFailed: 0,
    pixelAccount: { name: 'Main', pixelId: '123' },
    testEventCode: null,
    failureGroups: [],
    ...over,
    progress: {
      totalEvents: 100,
      eventsSent: 100,
      eventsFailed: 0,
      eventsSkipped: 0,
      secondsLeft: null,
      ...progress,
    },
  }) as DeliverySummary;
const none = { errorRows: 0, refundRows: 0 };

describe('exit codes', () => {
  it('0 when every event was sent, or a send that goes on', () => {
    expect(exitCodeOf(outcomeOf(file, summary(), none))).toBe(0);
    expect(exitCodeOf(outcomeOf(file, summary({ status: 'running' }), none))).toBe(0);
    // Left out because the pixel already had them is not a failure.
    expect(exitCodeOf(outcomeOf(file, summary({}, { eventsSkipped: 10, eventsSent: 90 }), none))).toBe(0);
  });

  it('2 when events failed or rows were left out', () => {
    const failed = summary({ status: 'completed_with_errors' }, { eventsSent: 99, eventsFailed: 1 });
    expect(exitCodeOf(outcomeOf(file, failed, none))).toBe(2);
    expect(exitCodeOf(outcomeOf(file, summary(), { errorRows: 3, refundRows: 0 }))).toBe(2);
    expect(exitCodeOf(outcomeOf(file, summary(), { errorRows: 0, refundRows: 1 }))).toBe(2);
    expect(exitCodeOf(outcomeOf(file, summary({ errorRowsSkipped: 2 }), none))).toBe(2);
  });

  it('1 when Meta stopped the send', () => {
    expect(exitCodeOf(outcomeOf(file, summary({ status: 'stopped' }, { eventsSent: 0 }), none))).toBe(1);
  });
});

describe('the summary', () => {
  it('says what was sent, failed, left out, why, and where the failed rows are', () => {
    const s = summary(
      {
        status: 'completed_with_errors',
        testEventCode: 'TEST1',
        failureGroups: [
          { events: 2, explanation: { title: 'Invalid parameter', fix: 'Check the event name.' } },
        ],
      },
      { eventsSent: 95, eventsFailed: 2, eventsSkipped: 3 },
    );
    const text = outcomeLines(outcomeOf(file, s, { errorRows: 4, refundRows: 0 })).join('\n');
    expect(text).toContain('Sent with failures: leads.csv (upload u1, 100 rows)');
    expect(text).toContain('Sent: 95   Failed: 2');
    expect(text).toContain('Already delivered to this pixel, not sent again: 3');
    expect(text).toContain('Rows with errors left out: 4');
    expect(text).toContain('code TEST1');
    expect(text).toContain('2 failed: Invalid parameter. Check the event name.');
    expect(text).toContain('backsignal failed-rows u1 -o failed.csv');
  });

  it('a file never sent', () => {
    const o = outcomeOf(file, null, none);
    expect(o.status).toBe('not_sent');
    expect(outcomeLines(o)[0]).toBe('Not sent yet: leads.csv (upload u1, 100 rows)');
    expect(exitCodeOf(o)).toBe(0);
  });
});
