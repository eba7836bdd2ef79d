/**
 * What to do with a Graph API answer to a Conversions API batch (meta-capi.md §1.13–1.14). Pure: the
 * caller passes the HTTP status, the parsed body (or the raw text) and any Retry-After header.
 */

/**
 * 'endpoint': the answer did not come from the Conversions API at all (a 404/405 or another non-Graph 4xx from a
 * proxy or a wrong address). Resending or splitting cannot help, so the run stops.
 */
export type Verdict = 'retry' | 'token' | 'permission' | 'pixel' | 'bad_rows' | 'endpoint';

export interface GraphError {
  code: number | null;
  subcode: number | null;
  type: string | null;
  message: string | null;
  userTitle: string | null;
  userMessage: string | null;
  fbtraceId: string | null;
  isTransient: boolean;
}

export type Outcome =
  | { kind: 'ok'; eventsReceived: number; fbtraceId: string | null }
  | {
      kind: 'error';
      verdict: Verdict;
      error: GraphError | null;
      /** Seconds Meta (or a proxy) asked us to wait, when it said so. */
      retryAfterSeconds: number | null;
      /** For bad_rows: the index in `data` Meta named (`$['data'][N]`), when it did. */
      badIndex: number | null;
      /** Short machine-readable cause for network failures and unparseable answers. */
      cause: string;
    };

const RETRY_CODES = new Set([1, 2, 4, 17, 32, 341, 368, 613, 5000, 80003, 80004]);
const TOKEN_CODES = new Set([102, 190]);
/**
 * Rate limits (meta-capi.md §1.13: application, user, page, Marketing API and ad-account throttling). Graph's error
 * guide says to wait, retry and reduce volume: a 'retry' verdict that the delivery engine answers by slowing the
 * whole run down, not just the batch that was refused.
 */
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80003, 80004]);

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && /^\d+$/.test(v)
      ? Number(v)
      : null;

/** The `error` object of a Graph error body, or null when the body is not one. */
export function parseGraphError(body: unknown): GraphError | null {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const e = (value as { error?: unknown }).error;
  if (!e || typeof e !== 'object') return null;
  const o = e as Record<string, unknown>;
  const code = num(o.code);
  const message = str(o.message);
  if (code === null && message === null) return null;
  return {
    code,
    subcode: num(o.error_subcode),
    type: str(o.type),
    message,
    userTitle: str(o.error_user_title),
    userMessage: str(o.error_user_msg),
    fbtraceId: str(o.fbtrace_id),
    isTransient: o.is_transient === true,
  };
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (!header) return null;
  const t = header.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const at = Date.parse(t);
  return Number.isNaN(at) ? null : Math.max(0, (at - nowMs) / 1000);
}

/** The row index Meta names in messages such as "… at $['data'][17] …". */
export function badRowIndex(message: string | null | undefined): number | null {
  if (!message) return null;
  const m = /\$\[['"]?data['"]?\]\[(\d+)\]/.exec(message) ?? /\bdata\[(\d+)\]/.exec(message);
  return m ? Number(m[1]) : null;
}

/** The verdict for an HTTP status and the Graph error it carried (if any). */
export function verdictFor(status: number, e: GraphError | null): Verdict {
  if (e?.isTransient) return 'retry';
  const code = e?.code ?? null;
  if (code !== null) {
    if (RETRY_CODES.has(code)) return 'retry';
    if (TOKEN_CODES.has(code)) return 'token';
    if (code === 10 || (code >= 200 && code <= 299)) return 'permission';
    if (code === 33 || (code === 100 && e?.subcode === 33)) return 'pixel';
    if (code === 100) return 'bad_rows';
  }
  if (status >= 500 || status === 408 || status === 429) return 'retry';
  if (status === 401) return 'token';
  if (status === 403) return 'permission';
  // Too large a body: halving is the documented cure (meta-capi.md §1.2).
  if (status === 413) return 'bad_rows';
  // A Graph error we have no rule for still names a problem with the data: split to find the rows.
  if (e) return 'bad_rows';
  // A 404, 405, an HTML page, any 4xx that is not a Graph error: no row is at fault, and halving would send
  // ~2N requests to an address that cannot take them.
  return 'endpoint';
}

/** Classifies one HTTP answer from `/{pixel}/events`. */
export function classifyResponse(input: {
  status: number;
  body: unknown;
  retryAfter?: string | null;
  nowMs: number;
}): Outcome {
  const { status, body } = input;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body) as unknown;
    } catch {
      parsed = null;
    }
  }
  if (status >= 200 && status < 300 && parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const received = num(o.events_received);
    if (received !== null) return { kind: 'ok', eventsReceived: received, fbtraceId: str(o.fbtrace_id) };
  }
  const error = parseGraphError(parsed);
  const retryAfterSeconds = parseRetryAfter(input.retryAfter, input.nowMs);
  if (status >= 200 && status < 300) {
    // A 2xx without events_received is not a confirmation: treat as transient so the batch is tried again.
    return {
      kind: 'error',
      verdict: 'retry',
      error,
      retryAfterSeconds,
      badIndex: null,
      cause: 'unexpected_success_body',
    };
  }
  const verdict = verdictFor(status, error);
  return {
    kind: 'error',
    verdict,
    error,
    retryAfterSeconds,
    badIndex:
      verdict === 'bad_rows' ? (badRowIndex(error?.message) ?? badRowIndex(error?.userMessage)) : null,
    cause: error ? `graph_${error.code ?? 'unknown'}` : `http_${status}`,
  };
}

/** Meta (or a proxy, HTTP 429) asked us to slow down: a subset of the 'retry' verdict. */
export function isThrottle(outcome: Outcome): boolean {
  if (outcome.kind !== 'error' || outcome.verdict !== 'retry') return false;
  const code = outcome.error?.code ?? null;
  return (code !== null && THROTTLE_CODES.has(code)) || outcome.cause === 'http_429';
}

/** Timeouts, refused and dropped connections: always worth another attempt. */
export function classifyNetworkFailure(cause: 'timeout' | 'network'): Outcome {
  return { kind: 'error', verdict: 'retry', error: null, retryAfterSeconds: null, badIndex: null, cause };
}

export interface BackoffPolicy {
  maxAttempts: number;
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { maxAttempts: 8, baseMs: 1000, capMs: 60_000 };

/**
 * The longest Retry-After we honour. A worker holds the batch's lease (and one of its send slots) through the
 * wait, and the user watches /summary; a proxy answering `Retry-After: 86400` (or a date next week) must not
 * park a run for a day. Past 5 minutes we wait 5 minutes and try again: with 8 attempts a batch that keeps
 * being refused fails within ~40 minutes with Meta's reason, instead of the run stalling silently.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Delay before attempt `attempt + 1` after `attempt` failures (1-based): full jitter over an exponential
 * ceiling, but never shorter than a Retry-After the server gave (itself capped at MAX_RETRY_AFTER_MS).
 * `random` in [0, 1) is injected.
 */
export function backoffDelayMs(
  attempt: number,
  retryAfterSeconds: number | null,
  random: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random * ceiling);
  const floor =
    retryAfterSeconds !== null ? Math.min(MAX_RETRY_AFTER_MS, Math.ceil(retryAfterSeconds * 1000)) : 0;
  return Math.max(jittered, floor);
}
