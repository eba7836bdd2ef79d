import type {
  SourceDetail,
  SourceInput,
  SourceList,
  SourceRunList,
  TestFetchRequest,
  TestFetchResponse,
  UploadList,
} from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

export const sourcesApi = {
  list: () => api<SourceList>('/api/sources'),
  get: (id: string) => api<SourceDetail>(`/api/sources/${id}`),
  runs: (id: string) => api<SourceRunList>(`/api/sources/${id}/runs`),
  create: (body: SourceInput) => api<{ id: string }>('/api/sources', { method: 'POST', body }),
  update: (id: string, body: SourceInput) =>
    api<{ message: string }>(`/api/sources/${id}`, { method: 'PATCH', body }),
  /** withUploads: the files its runs imported go too (default: they stay, among the files uploaded by hand). */
  remove: (id: string, withUploads = false) =>
    api<{ message: string }>(`/api/sources/${id}${withUploads ? '?deleteUploads=true' : ''}`, {
      method: 'DELETE',
    }),
  uploads: (id: string, limit: number) => api<UploadList>(`/api/sources/${id}/uploads?limit=${limit}`),
  pause: (id: string) => api<{ message: string }>(`/api/sources/${id}/pause`, { method: 'POST' }),
  resume: (id: string) => api<{ message: string }>(`/api/sources/${id}/resume`, { method: 'POST' }),
  runNow: (id: string) => api<{ message: string }>(`/api/sources/${id}/run`, { method: 'POST' }),
  testFetch: (body: TestFetchRequest) =>
    api<TestFetchResponse>('/api/sources/test-fetch', { method: 'POST', body }),
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatWhen = (iso: string | null) => (iso ? when.format(new Date(iso)) : '—');

export const RUN_STATUS_TEXT: Record<string, string> = {
  running: 'Running',
  sent: 'Sent',
  nothing_new: 'Nothing new',
  paused: 'Paused the source',
  failed: 'Failed',
};
