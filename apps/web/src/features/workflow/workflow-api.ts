import type {
  ConnectionTest,
  HeadersResponse,
  PixelAccount,
  PrepareResponse,
  PreviewResponse,
  StatusUpdate,
  TemplateDetail,
  UploadList,
  UploadResponse,
  UploadSummary,
  ValidationResponse,
} from '@backsignal/contracts';
import { api } from '../../lib/api.ts';
import { uploadWithProgress, type UploadProgress } from '../../lib/upload.ts';
import { resumableUpload, usesResumableUpload } from '../../lib/tus-upload.ts';
import { runUploadJob, type JobProgress } from './upload-job.ts';

const fileForm = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};

export const workflowApi = {
  list: (page: number) => api<UploadList>(`/api/uploads?limit=10&offset=${(page - 1) * 10}`),
  /** A large file goes up resumably (tus, decision 0120); a small one in one request, as the spec's route. */
  upload: (file: File, onProgress: (p: UploadProgress) => void = () => {}, onResume?: () => void) =>
    usesResumableUpload(file)
      ? resumableUpload(file, onProgress, onResume)
      : uploadWithProgress<UploadResponse>('/api/upload', fileForm(file), onProgress),
  remove: (id: string) => api<{ message: string }>(`/api/uploads/${id}`, { method: 'DELETE' }),
  file: (id: string) => api<UploadSummary>(`/api/uploads/${id}`),
  headers: (id: string) => api<HeadersResponse>(`/api/uploads/${id}/headers`),
  /** Skip or send the file's refund rows (negative Purchase values; docs/decisions/0098). */
  refundRows: (id: string, choice: 'skip' | 'send') =>
    api<{ choice: 'skip' | 'send'; refundRows: number }>(`/api/uploads/${id}/refund-rows`, {
      method: 'PUT',
      body: { choice },
    }),
  setStatus: (id: string, body: StatusUpdate) =>
    api<UploadSummary & { message: string }>(`/api/uploads/${id}/status`, { method: 'PATCH', body }),
  uploadFixed: (id: string, file: File, onProgress: (p: UploadProgress) => void = () => {}) =>
    uploadWithProgress<UploadResponse>(`/api/uploads/${id}/fixed`, fileForm(file), onProgress),
  /** A background job followed to its result; `onProgress` hears how far it has come. */
  validate: (id: string, onProgress?: (p: JobProgress) => void): Promise<ValidationResponse> =>
    runUploadJob(id, 'validate', onProgress),
  prepare: (id: string, onProgress?: (p: JobProgress) => void): Promise<PrepareResponse> =>
    runUploadJob(id, 'prepare', onProgress),
  preview: (id: string) => api<PreviewResponse>(`/api/uploads/${id}/preview`),
  templates: () => api<{ id: string; name: string }[]>('/api/mappings'),
  template: (id: string) => api<TemplateDetail>(`/api/mappings/${id}`),
  createTemplate: (body: { name: string; mappings: object; hardcoded: object }) =>
    api<{ id: string }>('/api/mappings', { method: 'POST', body }),
  updateTemplate: (id: string, body: object) =>
    api<{ message: string }>(`/api/mappings/${id}`, { method: 'PATCH', body }),
  deleteTemplate: (id: string) => api<{ message: string }>(`/api/mappings/${id}`, { method: 'DELETE' }),
  accounts: () => api<PixelAccount[]>('/api/meta/accounts'),
  createAccount: (body: { name: string; pixelId: string; accessToken: string }) =>
    api<PixelAccount>('/api/meta/accounts', { method: 'POST', body }),
  updateAccount: (id: string, body: object) =>
    api<PixelAccount>(`/api/meta/accounts/${id}`, { method: 'PATCH', body }),
  deleteAccount: (id: string) => api<{ message: string }>(`/api/meta/accounts/${id}`, { method: 'DELETE' }),
  testAccount: (id: string) => api<ConnectionTest>(`/api/meta/accounts/${id}/test`, { method: 'POST' }),
};

/** Spec §4: where opening a file from the list leads, by status (unknown counts as uploaded). */
export function routeForStatus(status: string, id: string): string {
  switch (status) {
    case 'mapped':
      return `/verify-data?fileId=${id}`;
    case 'validated':
    case 'prepared':
      return `/submit?fileId=${id}`;
    case 'submitted':
      return `/summary?fileId=${id}`;
    default:
      return `/map-columns?fileId=${id}`;
  }
}

/** Spec §4 badge colours. */
export const STATUS_BADGE: Record<string, string> = {
  uploaded: 'bg-slate-100 text-slate-700 ring-slate-300',
  mapped: 'bg-amber-100 text-amber-800 ring-amber-300',
  validated: 'bg-blue-100 text-blue-800 ring-blue-300',
  prepared: 'bg-blue-100 text-blue-800 ring-blue-300',
  submitted: 'bg-emerald-100 text-emerald-800 ring-emerald-300',
};

/** Keeps a loading state on screen at least `ms` (spec §9 minimum display times), so it never flickers. */
export async function atLeast<T>(ms: number, work: Promise<T>): Promise<T> {
  const [result] = await Promise.all([work, new Promise((r) => setTimeout(r, ms))]);
  return result;
}
