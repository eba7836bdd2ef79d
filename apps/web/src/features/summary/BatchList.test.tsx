import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BatchSummary, DeliverySummary } from '@backsignal/contracts';
import { BatchList, batchRows } from './BatchList.tsx';
import { summaryApi } from './summary-api.ts';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('./summary-api.ts', () => ({
  POLL_MS: 1500,
  summaryApi: { summary: vi.fn(), downloadFailed: vi.fn() },
}));

const batch = (index: number, status: 'sent' | 'failed'): BatchSummary => ({
  batchId: `b${index}`,
  index,
  status,
  count: 1,
  firstRow: index + 2,
  lastRow: index + 2,
  rowsNotInBatch: [],
  rowsNotInBatchCount: 0,
  attempts: 1,
  fbtraceId: null,
  errorMessage: status === 'failed' ? '{}' : null,
  explanation:
    status === 'failed'
      ? {
          title: 'Event too old',
          explanation: 'x',
          fix: 'y',
          metaTitle: null,
          metaMessage: 'Unknown error format',
        }
      : null,
});

const summary = (batches: BatchSummary[], nextBatchOffset: number | null): DeliverySummary => ({
  runId: 'r',
  status: 'completed_with_errors',
  totalBatches: 3,
  totalSent: 2,
  totalFailed: 1,
  pixelAccount: { name: 'P', pixelId: '1' },
  testEventCode: null,
  batches,
  batchesListed: 'all',
  nextBatchOffset,
  progress: {
    totalEvents: 3,
    batchesSent: 2,
    batchesFailed: 1,
    batchesRemaining: 0,
    eventsSent: 2,
    eventsFailed: 1,
    eventsRemaining: 0,
    eventsSkipped: 0,
  },
  stopReason: null,
  stopExplanation: null,
  startedAt: null,
  finishedAt: null,
});

describe('BatchList', () => {
  it('counts from the totals and fetches the next page on Show more', async () => {
    vi.mocked(summaryApi.summary).mockResolvedValue(summary([batch(2, 'sent')], null));
    render(<BatchList summary={summary([batch(1, 'failed'), batch(0, 'sent')], 2)} fileId="f1" />);
    expect(screen.getByText(/3 batches: 2 sent, 1 failed/)).toBeTruthy();
    expect(screen.getByText('Showing 2 of 3 batches.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(summaryApi.summary).toHaveBeenCalledWith('f1', 2);
    expect(await screen.findByText('Batch 3')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('lets the keyboard reach the sent batches list, which scrolls when long', () => {
    render(<BatchList summary={summary([batch(1, 'failed'), batch(0, 'sent')], null)} fileId="f1" />);
    const list = screen.getByRole('list', { name: 'Sent batches' });
    expect(list.tabIndex).toBe(0);
  });
});

describe('batch row ranges', () => {
  const range = (firstRow: number, lastRow: number, rowsNotInBatch: number[], rowsNotInBatchCount: number) =>
    batchRows({ ...batch(0, 'sent'), firstRow, lastRow, rowsNotInBatch, rowsNotInBatchCount });
  it.each([
    [range(2, 2, [], 0), 'Row 2'],
    [range(2, 101, [], 0), 'Rows 2–101'],
    [range(102, 151, [120], 1), 'Rows 102–151 except 120'],
    [range(102, 151, [110, 120, 130], 3), 'Rows 102–151 except 110, 120, 130'],
    [range(2, 101, [5, 9, 12], 7), 'Rows 2–101 except 7 rows (5, 9, 12, …)'],
  ])('%s', (label, expected) => expect(label).toBe(expected));
});
