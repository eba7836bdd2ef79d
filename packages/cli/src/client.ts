import { randomUUID } from 'node:crypto';
import type { Credentials } from './config.ts';
import { CliError } from './errors.ts';

/** Retries of a call the API answered 429: it says when to come back (Retry-After). */
const RATE_LIMIT_RETRIES = 5;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API's error body (`{ code, message }`, v1 adds `field` and `docs`) as a CliError. */
async function toError(res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not ours (a proxy's page): the status is all there is.
  }
  return new CliError(
    body.message || `The API answered HTTP ${res.status}.`,
    body.code ?? `HTTP_${res.status}`,
    res.status,
  );
}

export type Api = ReturnType<typeof apiClient>;

/** Calls of /api/v1 with the key as a bearer token; a POST carries a fresh Idempotency-Key. */
export function apiClient(credentials: Credentials, fetchImpl: typeof fetch = fetch) {
  async function request(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${credentials.apiKey}`,
      accept: 'application/json',
      'user-agent': 'backsignal-cli',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // One key per call, kept across its retries: a retried POST starts nothing twice.
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetchImpl(credentials.apiUrl + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        throw new CliError(`Could not reach ${credentials.apiUrl}: ${(err as Error).message}`, 'NETWORK');
      }
      if (res.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        await sleep(Math.max(1, Number(res.headers.get('retry-after')) || 1) * 1000);
        continue;
      }
      if (!res.ok) throw await toError(res);
      return res;
    }
  }
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await (await request(method, path, body)).json()) as T;
  return {
    credentials,
    get: <T>(path: string) => json<T>('GET', path),
    post: <T>(path: string, body?: unknown) => json<T>('POST', path, body ?? {}),
    put: <T>(path: string, body: unknown) => json<T>('PUT', path, body),
    /** A download (CSV) as text. */
    text: async (path: string) => (await request('GET', path)).text(),
    /** Every item of a cursor-paged list. */
    async all<T>(path: string): Promise<T[]> {
      const items: T[] = [];
      let cursor: string | null = null;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const page: { data: T[]; nextCursor: string | null } = await json(
          'GET',
          `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        items.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor);
      return items;
    },
  };
}
