import { describe, expect, it, vi, beforeEach } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DeliverySummary } from '@backsignal/contracts';
import { ApiError } from '../../lib/api.ts';
import { SummaryPage } from './SummaryPage.tsx';
import { summaryApi } from './summary-api.ts';

const toastError = vi.fn();
const toastSuccess = vi.fn();
const toastWarning = vi.fn();
vi.mock('react-toastify', () => ({
  toast: {
    error: (m: string) => toastError(m),
    success: (m: string) => toastSuccess(m),
    warning: (m: string) => toastWarning(m),
  },
}));
vi.mock('../../lib/track.ts', () => ({ track: vi.fn() }));
vi.mock('./summary-api.ts', () => ({
  POLL_MS: 1500,
  summaryApi: {
    file: vi.fn(),
    send: vi.fn(),
    summary: vi.fn(),
    batches: vi.fn(),
    downloadFailed: vi.fn(),
    downloadAllFailed: vi.fn(),
  },
}));

const finished = (status: DeliverySummary['status']): DeliverySummary => ({
  runId: 'r',
  status,
  totalBatches: 1,
  totalSent: 1,
  totalFailed: 0,
  pixelAccount: { name: 'P', pixelId: '1' },
  testEventCode: null,
  batches: [],
  batchesListed: 'all',
  nextBatchOffset: null,
  progress: {
    totalEvents: 1,
    batchesSent: 1,
    batchesFailed: 0,
    batchesRemaining: 0,
    eventsSent: 1,
    eventsFailed: 0,
    eventsRemaining: 0,
    eventsSkipped: 0,
    secondsLeft: null,
  },
  failureGroups: [],
  stopReason: null,
  stopExplanation: null,
  startedAt: null,
  finishedAt: null,
});

const NOT_READY = 'Cannot submit: data not in the right state';
const notReady = () => new ApiError(409, 'INVALID_STATE', NOT_READY);

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

function renderSummary(state: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[{ pathname: '/summary', search: '?fileId=f1', state }]}>
        <Routes>
          <Route path="/summary" element={<SummaryPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  toastError.mockReset();
  toastSuccess.mockReset();
  toastWarning.mockReset();
  vi.mocked(summaryApi.file).mockReset();
  vi.mocked(summaryApi.send).mockReset();
  vi.mocked(summaryApi.summary).mockReset();
});

describe('SummaryPage when the file is not in the right state (spec §8)', () => {
  it('toasts and goes to the dashboard when the send is refused, instead of the Error page', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'prepared' } as never);
    vi.mocked(summaryApi.send).mockRejectedValue(notReady());
    renderSummary({ selectedAccountId: 'a1' });
    await waitFor(() => expect(screen.getByText('at /dashboard')).toBeTruthy());
    expect(toastError).toHaveBeenCalledWith(NOT_READY);
    expect(screen.queryByText('Error')).toBeNull();
  });

  it('does the same when the summary of a submitted file is refused', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    vi.mocked(summaryApi.summary).mockRejectedValue(notReady());
    renderSummary(null);
    await waitFor(() => expect(screen.getByText('at /dashboard')).toBeTruthy());
    expect(toastError).toHaveBeenCalledWith(NOT_READY);
  });

  it('keeps the Error page with the server message for other send failures', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'prepared' } as never);
    vi.mocked(summaryApi.send).mockRejectedValue(
      new ApiError(500, 'INTERNAL', 'Submission failed: queue down'),
    );
    renderSummary({ selectedAccountId: 'a1' });
    expect(await screen.findByText('Submission failed: queue down')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Error' })).toBeTruthy();
    expect(toastError).toHaveBeenCalledWith('Submission failed');
  });
});

describe('SummaryPage announcing the end of a send', () => {
  // Found by a flaky browser journey: a small send could finish before the first poll saw it running.
  it("toasts 'Submission complete!' for a send it started that is over by the first poll", async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'prepared' } as never);
    vi.mocked(summaryApi.send).mockResolvedValue({} as never);
    vi.mocked(summaryApi.summary).mockResolvedValue(finished('completed'));
    renderSummary({ selectedAccountId: 'a1' });
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Submission complete!'));
    // Spec §8: the move to submitted is told too, once.
    expect(toastSuccess.mock.calls).toEqual([['File marked as submitted'], ['Submission complete!']]);
  });

  it('toasts a warning, never the green success, for a send that completed with errors', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'prepared', fileName: 'leads.csv' } as never);
    vi.mocked(summaryApi.send).mockResolvedValue({} as never);
    vi.mocked(summaryApi.summary).mockResolvedValue({
      ...finished('completed_with_errors'),
      totalFailed: 66,
      failureGroups: [
        {
          key: 'k',
          events: 66,
          batches: 66,
          sampleRows: [5, 9],
          explanation: {
            title: 'Event too old',
            explanation: 'Too old.',
            fix: 'Remove them.',
            metaTitle: null,
            metaMessage: 'm',
          },
        },
      ],
    });
    renderSummary({ selectedAccountId: 'a1' });
    await waitFor(() => expect(toastWarning).toHaveBeenCalledTimes(1));
    expect(toastSuccess).not.toHaveBeenCalledWith('Submission complete!');
    expect(await screen.findByRole('heading', { name: 'Completed with Errors' })).toBeTruthy();
    // One card for the reason and one download for every failed row.
    expect(screen.getAllByRole('button', { name: 'Download all failed rows' })).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Event too old' })).toBeTruthy();
  });

  it('says it is safe to close the window while sending', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    vi.mocked(summaryApi.summary).mockResolvedValue(finished('running'));
    renderSummary(null);
    expect(await screen.findByText(/Safe to close this window/)).toBeTruthy();
    expect(screen.queryByText(/don't close this window/)).toBeNull();
  });

  it('does not toast when opening the summary of a send that ended earlier', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    vi.mocked(summaryApi.summary).mockResolvedValue(finished('completed'));
    renderSummary(null);
    expect(await screen.findByRole('heading', { name: 'Submission Successful' })).toBeTruthy();
    expect(toastSuccess).not.toHaveBeenCalled();
  });

  it('says how many refund rows were skipped (issue 29)', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    vi.mocked(summaryApi.summary).mockResolvedValue({ ...finished('completed'), refundRowsSkipped: 3 });
    renderSummary(null);
    expect(
      await screen.findByText('3 refund rows (Purchase with a negative value) skipped, not sent.'),
    ).toBeTruthy();
  });

  it('says how many rows with errors were skipped before sending, with their download', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    vi.mocked(summaryApi.summary).mockResolvedValue({ ...finished('completed'), errorRowsSkipped: 12 });
    renderSummary(null);
    expect(await screen.findByText('12 rows with errors skipped, not sent.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download skipped rows' })).toBeTruthy();
  });

  it('says a stop before the whole file was read left an uncounted rest, without a made-up number', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'submitted' } as never);
    const stopped = finished('stopped');
    vi.mocked(summaryApi.summary).mockResolvedValue({
      ...stopped,
      stopReason: 'token',
      stopExplanation: {
        title: 'Access token expired or invalid',
        explanation: 'Meta refused it.',
        fix: 'Reconnect.',
        metaTitle: null,
        metaMessage: '',
      },
      progress: { ...stopped.progress, totalEvents: null, eventsRemaining: null, eventsSkipped: null },
    });
    renderSummary(null);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Sending stopped before the whole file was read, so Backsignal did not count how many events were not sent.',
    );
  });

  it('does not toast a send it started that was stopped', async () => {
    vi.mocked(summaryApi.file).mockResolvedValue({ status: 'prepared' } as never);
    vi.mocked(summaryApi.send).mockResolvedValue({} as never);
    vi.mocked(summaryApi.summary).mockResolvedValue(finished('stopped'));
    renderSummary({ selectedAccountId: 'a1' });
    await waitFor(() => expect(summaryApi.summary).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 400));
    expect(toastSuccess).not.toHaveBeenCalledWith('Submission complete!');
  });
});
