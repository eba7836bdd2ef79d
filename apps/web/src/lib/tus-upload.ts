import {
  TUS_CHUNK_BYTES,
  TUS_UPLOADS_PATH,
  type TusUploadState,
  type UploadResponse,
} from '@backsignal/contracts';
import type { DetailedError, HttpRequest } from 'tus-js-client';
import { api, ApiError, readCookie } from './api.ts';
import { activeWorkspaceSlug, workspaceHeaders } from './active-workspace.ts';
import type { UploadProgress } from './upload.ts';

/** A file bigger than one chunk goes up resumably; smaller ones keep the single request (POST /api/upload). */
export const usesResumableUpload = (file: File) => file.size > TUS_CHUNK_BYTES;

/** Waits between tries after a dropped connection: a phone that loses signal for a minute still finishes. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000];
const POLL_MS = 500;

function apiErrorOf(err: Error | DetailedError): Error {
  const res = (err as DetailedError).originalResponse;
  if (!res) return err;
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(res.getBody()) as typeof body;
  } catch {
    // A proxy's own page: no message of ours to show.
  }
  const status = res.getStatus();
  return new ApiError(status, body.code ?? `HTTP_${status}`, body.message ?? '');
}

/** tus-js-client's own rule (network failures, 5xx, 409, 423), plus one more try after a stale XSRF cookie. */
export function shouldRetry(err: DetailedError, attempt: number): boolean {
  const status = err.originalResponse?.getStatus() ?? 0;
  if (status === 403)
    return attempt === 0 && err.originalResponse?.getBody().includes('XSRF_INVALID') === true;
  return !(status >= 400 && status < 500 && status !== 409 && status !== 423);
}

/**
 * Uploads a file with tus (decision 0120): 5 MiB PATCHes, retried after a dropped connection from the offset the
 * server has, and resumed after a page reload when the same file is chosen again (its fingerprint and upload
 * address are kept in localStorage until it succeeds). Once every byte is in, waits while the server reads it.
 */
export async function resumableUpload(
  file: File,
  onProgress: (p: UploadProgress) => void,
  /** Told when the upload continues one that a reload or a lost connection cut off. */
  onResume: () => void = () => {},
): Promise<UploadResponse> {
  const { Upload } = await import('tus-js-client');
  const workspace = activeWorkspaceSlug() ?? '';
  const location = await new Promise<string>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: TUS_UPLOADS_PATH,
      chunkSize: TUS_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type },
      // The same file in another workspace is another upload.
      fingerprint: async (f: File) =>
        ['backsignal-tus', workspace, f.name, f.type, f.size, f.lastModified].join('/'),
      removeFingerprintOnSuccess: true,
      onBeforeRequest(req: HttpRequest) {
        // Read on every request: a retry after a stale-XSRF refusal carries the fresh cookie.
        const xsrf = readCookie('XSRF-TOKEN');
        if (xsrf) req.setHeader('x-xsrf-token', xsrf);
        for (const [name, value] of Object.entries(workspaceHeaders())) req.setHeader(name, value);
      },
      onShouldRetry: (err, attempt) => shouldRetry(err, attempt),
      onProgress: (loaded, total) => onProgress({ loaded, total: total ?? file.size }),
      onSuccess: () => resolve(upload.url!),
      onError: (err) => reject(apiErrorOf(err)),
    });
    void upload.findPreviousUploads().then((previous) => {
      const last = previous[0];
      if (last) {
        upload.resumeFromPreviousUpload(last);
        onResume();
      }
      upload.start();
    }, reject);
  });
  for (;;) {
    const state = await api<TusUploadState>(location);
    if (state.state === 'done') return state.upload;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
