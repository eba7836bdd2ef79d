import { describe, expect, it, vi, beforeEach } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BatchSummary, DeliverySummary } from '@backsignal/contracts';
import { BatchList, batchRows } from './BatchList.tsx';
import { summaryApi } from './summary-api.ts';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('./summary-api.ts', () => ({
  POLL_MS: 1500,
  summaryApi: { batches: vi.fn(), downloadFailed: vi.fn() },
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

/** 200 batches, 66 of them failed: the case that made a 17,000-px page. */
const summary: DeliverySummary = {
  runId: 'r',
  status: 'completed_with_errors',
  totalBatches: 200,
  totalSent: 134,
  totalFailed: 66,
  pixelAccount: { name: 'P', pixelId: '1' },
  testEventCode: null,
  batches: [],
  batchesListed: 'all',
  nextBatchOffset: null,
  progress: {
    totalEvents: 200,
    batchesSent: 134,
    batchesFailed: 66,
    batchesRemaining: 0,
    eventsSent: 134,
    eventsFailed: 66,
    eventsRemaining: 0,
    eventsSkipped: 0,
    secondsLeft: null,
  },
  failureGroups: [],
  stopReason: null,
  stopExplanation: null,
  startedAt: null,
  finishedAt: null,
};

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <BatchList summary={summary} fileId="f1" />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.mocked(summaryApi.batches).mockReset();
  vi.mocked(summaryApi.batches).mockImplementation(async (_id, status, offset) => ({
    batches: Array.from({ length: 20 }, (_, i) => batch(offset + i, status === 'failed' ? 'failed' : 'sent')),
    total: status === 'failed' ? 66 : 200,
    offset,
    limit: 20,
  }));
});

describe('BatchList', () => {
  it('is collapsed and loads nothing until opened, however many batches there are', () => {
    renderList();
    expect(screen.getByText(/200 batches: 134 sent, 66 failed/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Batches' })).toBeNull();
    expect(summaryApi.batches).not.toHaveBeenCalled();
  });

  it('shows one page of 20 at a time, filtered, with Previous and Next', async () => {
    renderList();
    await userEvent.click(screen.getByText('Batch details'));
    const list = await screen.findByRole('list', { name: 'Batches' });
    expect(list.querySelectorAll('li')).toHaveLength(20);
    expect(summaryApi.batches).toHaveBeenLastCalledWith('f1', 'all', 0);
    expect(screen.getByText('1–20 of 200')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(summaryApi.batches).toHaveBeenLastCalledWith('f1', 'all', 20));
    expect(await screen.findByText('21–40 of 200')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Failed (66)' }));
    await waitFor(() => expect(summaryApi.batches).toHaveBeenLastCalledWith('f1', 'failed', 0));
    expect(await screen.findByText('1–20 of 66')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Download failed rows of batch/ })).toHaveLength(20);
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
