import type {
  BatchesPage,
  BatchFilter,
  DeliverySummary,
  SendRequest,
  SendResponse,
  UploadSummary,
} from '@backsignal/contracts';
import { api, download } from '../../lib/api.ts';

export const summaryApi = {
  file: (id: string) => api<UploadSummary>(`/api/uploads/${id}`),
  send: (id: string, body: SendRequest) =>
    api<SendResponse>(`/api/uploads/${id}/send`, { method: 'POST', body }),
  /** Retries a send Meta stopped: only the events the pixel has not received (docs/decisions/0099). */
  retry: (id: string) => api<SendResponse>(`/api/uploads/${id}/send/retry`, { method: 'POST', body: {} }),
  /** Saves a new access token to the pixel account (write-only: the answer shows it masked). */
  replaceToken: (accountId: string, accessToken: string) =>
    api<unknown>(`/api/meta/accounts/${accountId}`, { method: 'PATCH', body: { accessToken } }),
  summary: (id: string, batchOffset = 0) =>
    api<DeliverySummary>(`/api/uploads/${id}/summary${batchOffset ? `?batchOffset=${batchOffset}` : ''}`),
  batches: (id: string, status: BatchFilter, offset: number) =>
    api<BatchesPage>(`/api/uploads/${id}/batches?status=${status}&offset=${offset}`),
  /** Saved under the number the summary shows: 'Batch 3' (index 2) downloads failed-rows-batch-3.csv. */
  downloadFailed: (id: string, batchId: string, index: number) =>
    download(`/api/uploads/${id}/batches/${batchId}/download-original`, `failed-rows-batch-${index + 1}.csv`),
  /** Every failed row of the send in one file, each with its reason. */
  downloadAllFailed: (id: string, fileName: string) =>
    download(`/api/uploads/${id}/failed-rows`, `${fileName.replace(/\.csv$/i, '')}-failed-rows.csv`),
};

/** While a run is sending the page polls; finished runs are not polled. */
export const POLL_MS = 1500;
