import { ApiError, readCookie } from './api.ts';
import { workspaceHeaders } from './active-workspace.ts';

/** Bytes of the request body sent so far; `total` is the whole body (the file and its multipart framing). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

function sendOnce(path: string, body: FormData, onProgress: (p: UploadProgress) => void) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports how much of a request body has gone out.
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) xhr.setRequestHeader('x-xsrf-token', xsrf);
    for (const [name, value] of Object.entries(workspaceHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress({ loaded: e.loaded, total: e.total });
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('Network error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    xhr.send(body);
  });
}

const parse = (text: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/**
 * Posts a file as multipart with the session's XSRF header and reports the bytes sent, so a big file shows how
 * far its upload has come. Like `api`, a stale-XSRF refusal is sent once more (it set a fresh cookie).
 */
export async function uploadWithProgress<T>(
  path: string,
  body: FormData,
  onProgress: (p: UploadProgress) => void,
): Promise<T> {
  let res = await sendOnce(path, body, onProgress);
  if (res.status === 403 && parse(res.text)?.code === 'XSRF_INVALID')
    res = await sendOnce(path, body, onProgress);
  const data = parse(res.text);
  if (res.status < 200 || res.status >= 300) {
    throw new ApiError(
      res.status,
      typeof data?.code === 'string' ? data.code : `HTTP_${res.status}`,
      typeof data?.message === 'string' ? data.message : '',
      data?.fields as Record<string, string> | undefined,
    );
  }
  return data as T;
}

/** "Uploading… 45% (12.3 of 27.0 MB)", then, once every byte is sent, what the server is doing with them. */
export function uploadProgressText(p: UploadProgress | null): string {
  if (!p || p.total <= 0) return 'Uploading...';
  if (p.loaded >= p.total) return 'Upload complete. Reading the file...';
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `Uploading... ${Math.floor((p.loaded / p.total) * 100)}% (${mb(p.loaded)} of ${mb(p.total)} MB)`;
}
