import type { ErrorBody } from '@backsignal/contracts';
import { workspaceHeaders } from './active-workspace.ts';

/** An API failure carrying the server's stable code and user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function readCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** false for the credential-less public forms (spec §6). */
  credentials?: boolean;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  const xsrf = readCookie('XSRF-TOKEN');
  // On every credentialed call, GETs included: the GETs that write or spend quota (validate, prepare and the
  // two downloads) require it, so that a cross-site link or image cannot trigger them.
  if (xsrf && opts.credentials !== false) headers['x-xsrf-token'] = xsrf;
  // The public forms name no workspace: they act for no account.
  if (opts.credentials !== false) Object.assign(headers, workspaceHeaders());
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  return fetch(path, {
    method,
    headers,
    body,
    signal: opts.signal,
    credentials: opts.credentials === false ? 'omit' : 'same-origin',
  });
}

async function toError(res: Response): Promise<ApiError> {
  const data = (await res.json().catch(() => null)) as Partial<ErrorBody> | null;
  return new ApiError(res.status, data?.code ?? 'HTTP_' + res.status, data?.message ?? '', data?.fields);
}

/**
 * JSON request to the API with the session cookie and the XSRF header. A stale XSRF token (session expired
 * in another tab) is refreshed by the server's 403 response, so the call is retried once.
 */
/** Sends once more after a stale-XSRF 403: the refusal itself set a fresh XSRF cookie. */
async function sendFresh(path: string, opts: RequestOptions): Promise<Response> {
  const res = await send(path, opts);
  if (res.status !== 403 || opts.credentials === false) return res;
  const err = await toError(res.clone());
  return err.code === 'XSRF_INVALID' ? send(path, opts) : res;
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await sendFresh(path, opts);
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await res.json() : await res.text()) as T;
}

/** Downloads a file from the API and saves it under the given name. */
export async function download(path: string, fileName: string): Promise<void> {
  // fetch + blob, never a plain link: the report and the full preview need the XSRF header.
  const res = await sendFresh(path, {});
  if (!res.ok) throw await toError(res);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
