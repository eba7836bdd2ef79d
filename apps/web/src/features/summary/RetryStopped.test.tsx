import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DeliverySummary } from '@backsignal/contracts';
import { ApiError } from '../../lib/api.ts';
import { RetryStopped } from './RetryStopped.tsx';
import { summaryApi } from './summary-api.ts';

vi.mock('./summary-api.ts', () => ({
  summaryApi: { retry: vi.fn(), replaceToken: vi.fn() },
}));

const stopped = (over: Partial<DeliverySummary> = {}): DeliverySummary => ({
  runId: 'r',
  status: 'stopped',
  totalBatches: 2,
  totalSent: 100,
  totalFailed: 0,
  pixelAccount: { name: 'Main store', pixelId: '1', accountId: 'acc-1' },
  testEventCode: null,
  batches: [],
  batchesListed: 'all',
  nextBatchOffset: null,
  progress: {
    totalEvents: 250,
    batchesSent: 1,
    batchesFailed: 0,
    batchesRemaining: 0,
    eventsSent: 100,
    eventsFailed: 100,
    eventsRemaining: 50,
    eventsSkipped: 0,
    secondsLeft: null,
  },
  failureGroups: [],
  stopReason: 'token',
  stopExplanation: null,
  startedAt: null,
  finishedAt: null,
  retry: { allowed: true, isRetry: false, sentBefore: 0 },
  ...over,
});

function renderRetry(summary: DeliverySummary) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <RetryStopped summary={summary} fileId="f1" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { invalidate };
}

beforeEach(() => {
  vi.mocked(summaryApi.retry).mockReset().mockResolvedValue({ runId: 'r2', status: 'running' });
  vi.mocked(summaryApi.replaceToken).mockReset().mockResolvedValue({});
});

describe('RetryStopped', () => {
  it('replaces the refused token and retries the send with one button', async () => {
    const { invalidate } = renderRetry(stopped());
    expect(screen.getByText(/sends the 150 events not delivered, with the same event IDs/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New access token'), ' EAAB-new-token ');
    await userEvent.click(screen.getByRole('button', { name: 'Replace token and retry' }));
    await waitFor(() => expect(summaryApi.retry).toHaveBeenCalledWith('f1'));
    expect(summaryApi.replaceToken).toHaveBeenCalledWith('acc-1', 'EAAB-new-token');
    expect(vi.mocked(summaryApi.replaceToken).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(summaryApi.retry).mock.invocationCallOrder[0]!,
    );
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['summary', 'f1'] }));
  });

  it('asks for the token before anything is sent', async () => {
    renderRetry(stopped());
    await userEvent.click(screen.getByRole('button', { name: 'Replace token and retry' }));
    expect(await screen.findByText('Paste the new access token first.')).toBeTruthy();
    expect(summaryApi.replaceToken).not.toHaveBeenCalled();
    expect(summaryApi.retry).not.toHaveBeenCalled();
  });

  it("shows the server's reason when the retry is refused", async () => {
    vi.mocked(summaryApi.retry).mockRejectedValue(
      new ApiError(409, 'INVALID_STATE', 'The pixel account this file was sent with was deleted.'),
    );
    renderRetry(stopped({ stopReason: 'permission' }));
    // A permission stop is fixed on Pixel Accounts: no token field, one button.
    expect(screen.queryByLabelText('New access token')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open Pixel Accounts' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry the send' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The pixel account this file was sent with was deleted.',
    );
  });

  it('offers nothing when the run cannot be retried', () => {
    const { container } = render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <RetryStopped
            summary={stopped({
              stopReason: 'internal',
              retry: { allowed: false, isRetry: false, sentBefore: 0 },
            })}
            fileId="f1"
          />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(container.textContent).toBe('');
  });
});
