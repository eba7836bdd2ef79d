import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import type { DeliverySummary } from '@backsignal/contracts';
import { Progress } from './Progress.tsx';

const summary = (
  progress: Partial<DeliverySummary['progress']>,
  status: DeliverySummary['status'] = 'running',
) =>
  ({
    status,
    progress: {
      totalEvents: 150,
      batchesSent: 2,
      batchesFailed: 1,
      batchesRemaining: 0,
      eventsSent: 149,
      eventsFailed: 1,
      eventsRemaining: 0,
      eventsSkipped: 0,
      secondsLeft: null,
      ...progress,
    },
  }) as DeliverySummary;

describe('Progress', () => {
  it('shows skipped rows and the time left while sending', () => {
    const { container, getByText } = render(
      <Progress
        summary={summary({ eventsSkipped: 40, eventsRemaining: 60, batchesRemaining: 1, secondsLeft: 150 })}
      />,
    );
    expect(container.querySelectorAll('dl > div')[2]?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Skipped40 eventsalready delivered',
    );
    expect(getByText('About 3 minutes left')).toBeTruthy();
  });

  it('says "1 event", not "1 events"', () => {
    const { container } = render(<Progress summary={summary({})} />);
    const cells = [...container.querySelectorAll('dl > div')].map((d) =>
      d.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(cells).toEqual([
      'Sent149 events2 batches',
      'Failed1 event1 batch',
      'Skipped0 eventsalready delivered',
      'Remaining0 eventsplanning batches…',
    ]);
  });

  it('does not claim 0 batches remain while events are still waiting to be planned', () => {
    const { container } = render(
      <Progress
        summary={summary({
          batchesSent: 0,
          batchesFailed: 0,
          batchesRemaining: 0,
          eventsSent: 0,
          eventsFailed: 0,
          eventsRemaining: 27,
        })}
      />,
    );
    expect(container.querySelectorAll('dl > div')[3]?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Remaining27 eventsplanning batches…',
    );
  });

  it('says what a run stopped before its file was read to the end left is not counted, not "…" or "planning"', () => {
    const { container } = render(
      <Progress
        summary={summary(
          { totalEvents: null, eventsRemaining: null, eventsSkipped: null, batchesRemaining: 0 },
          'stopped',
        )}
      />,
    );
    expect(container.querySelectorAll('dl > div')[3]?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Remainingnot counted',
    );
  });
});
