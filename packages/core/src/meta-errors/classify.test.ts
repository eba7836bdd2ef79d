import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  badRowIndex,
  classifyNetworkFailure,
  classifyResponse,
  isThrottle,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
} from './classify.ts';
import { explainMetaError, UNKNOWN_ERROR_FORMAT } from './explain.ts';

const classify = (input: { status: number; body: unknown; retryAfter?: string }) =>
  classifyResponse({ ...input, nowMs: 0 });
const err = (code: number, extra: Record<string, unknown> = {}) => ({
  error: { message: 'm', type: 'OAuthException', code, ...extra },
});

describe('classifyResponse', () => {
  const cases: [string, number, unknown, string][] = [
    ['500 without body', 500, '', 'retry'],
    ['502 html', 502, '<html>bad gateway</html>', 'retry'],
    ['503 graph error', 503, err(2), 'retry'],
    ...[1, 2, 4, 17, 32, 341, 368, 613, 80003, 80004].map((c): [string, number, unknown, string] => [
      `code ${c}`,
      400,
      err(c),
      'retry',
    ]),
    ['is_transient', 400, err(100, { is_transient: true }), 'retry'],
    ['429 no body', 429, '', 'retry'],
    ['190 expired', 401, err(190, { error_subcode: 463 }), 'token'],
    ['102 session', 400, err(102), 'token'],
    ['10 permission', 403, err(10), 'permission'],
    ['200 permission', 400, err(200), 'permission'],
    ['299 permission', 400, err(299), 'permission'],
    ['100/33 pixel', 400, err(100, { error_subcode: 33 }), 'pixel'],
    ['33 pixel', 400, err(33), 'pixel'],
    ['100 invalid', 400, err(100, { error_subcode: 2804003 }), 'bad_rows'],
    ['401 without body', 401, 'nope', 'token'],
    ['403 without body', 403, 'nope', 'permission'],
    ['404 html from a proxy', 404, '<html>Not Found</html>', 'endpoint'],
    ['405 method not allowed', 405, '', 'endpoint'],
    ['400 html', 400, '<html>Bad Request</html>', 'endpoint'],
    ['413 too large', 413, '<html>Request Entity Too Large</html>', 'bad_rows'],
    ['504 html', 504, '<html>Gateway Timeout</html>', 'retry'],
    ['400 graph error with an unknown code', 400, err(2500), 'bad_rows'],
  ];
  it.each(cases)('%s → %s', (_name, status, body, verdict) => {
    const out = classify({ status, body });
    expect(out.kind).toBe('error');
    if (out.kind === 'error') expect(out.verdict).toBe(verdict);
  });

  it('reads a success', () => {
    expect(classify({ status: 200, body: { events_received: 3, messages: [], fbtrace_id: 'AX' } })).toEqual({
      kind: 'ok',
      eventsReceived: 3,
      fbtraceId: 'AX',
    });
    expect(classify({ status: 200, body: '{"events_received":2}' })).toMatchObject({
      kind: 'ok',
      eventsReceived: 2,
    });
  });

  it('does not count a 2xx without events_received as delivered', () => {
    expect(classify({ status: 200, body: '{}' })).toMatchObject({ kind: 'error', verdict: 'retry' });
  });

  it('finds the bad row index Meta names', () => {
    const out = classify({
      status: 400,
      body: err(100, { message: "Invalid parameter at $['data'][17]['user_data']" }),
    });
    expect(out).toMatchObject({ verdict: 'bad_rows', badIndex: 17 });
    expect(classify({ status: 400, body: err(100) })).toMatchObject({ verdict: 'bad_rows', badIndex: null });
  });

  it('keeps Retry-After', () => {
    expect(classify({ status: 429, body: err(17), retryAfter: '7' })).toMatchObject({ retryAfterSeconds: 7 });
  });

  it('tells rate limits (the run slows down) from other retries', () => {
    for (const c of [4, 17, 32, 613, 80003, 80004])
      expect(isThrottle(classify({ status: 400, body: err(c) }))).toBe(true);
    expect(isThrottle(classify({ status: 429, body: '' }))).toBe(true);
    for (const c of [1, 2, 341, 368, 5000])
      expect(isThrottle(classify({ status: 400, body: err(c) }))).toBe(false);
    expect(isThrottle(classify({ status: 503, body: '' }))).toBe(false);
    expect(isThrottle(classifyNetworkFailure('timeout'))).toBe(false);
    expect(isThrottle(classify({ status: 400, body: err(100) }))).toBe(false);
  });

  it('network failures retry', () => {
    expect(classifyNetworkFailure('timeout')).toMatchObject({ verdict: 'retry', cause: 'timeout' });
  });
});

describe('helpers', () => {
  it.each([
    ["$['data'][0]", 0],
    ['$["data"][42]', 42],
    ['data[3] is bad', 3],
    ['nothing here', null],
  ])('badRowIndex(%s) = %s', (msg, idx) => expect(badRowIndex(msg)).toBe(idx));

  it('parses Retry-After in seconds and as a date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5_000)).toBe(5);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });

  it('backs off with full jitter under an exponential cap, never below Retry-After', () => {
    const p = { maxAttempts: 8, baseMs: 1000, capMs: 60_000 };
    expect(backoffDelayMs(1, null, 0.999, p)).toBe(999);
    expect(backoffDelayMs(3, null, 0.5, p)).toBe(2000);
    expect(backoffDelayMs(20, null, 0.999, p)).toBe(59_940);
    expect(backoffDelayMs(1, null, 0, p)).toBe(0);
    expect(backoffDelayMs(1, 5, 0.1, p)).toBe(5000);
  });

  it('caps Retry-After at 5 minutes, as seconds or as a far-off date', () => {
    const p = { maxAttempts: 8, baseMs: 1000, capMs: 60_000 };
    expect(backoffDelayMs(1, 86_400, 0.5, p)).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(300_000);
    const nextWeek = parseRetryAfter(new Date(7 * 86_400_000).toUTCString(), 0);
    expect(backoffDelayMs(2, nextWeek, 0.5, p)).toBe(300_000);
    expect(backoffDelayMs(2, 299, 0.5, p)).toBe(299_000);
  });
});

describe('explainMetaError', () => {
  const cases: [string, unknown, string][] = [
    ['expired token', err(190, { error_subcode: 463 }), 'Access token expired or invalid'],
    ['too old', err(100, { error_subcode: 2804003 }), 'Event too old'],
    ['not hashed', err(100, { error_subcode: 2804016 }), 'Customer information not hashed'],
    ['insufficient info', err(100, { error_subcode: 2804050 }), 'Not enough customer information'],
    ['wrong pixel', err(100, { error_subcode: 33 }), 'Wrong pixel ID or no access'],
    ['rate limited', err(17), 'Meta asked us to slow down'],
    ['permission', err(10), 'Permission denied'],
    ['blocked for a policy violation', err(368), 'Meta temporarily blocked sending'],
    ['server error', err(2), 'Meta could not be reached'],
  ];
  it.each(cases)('%s', (_n, raw, title) => expect(explainMetaError(raw).title).toBe(title));

  it("shows Meta's user title and message, else its message", () => {
    expect(
      explainMetaError(
        err(100, { error_user_title: 'Event Timestamp Too Old', error_user_msg: 'Too far in the past' }),
      ),
    ).toMatchObject({
      metaTitle: 'Event Timestamp Too Old',
      metaMessage: 'Too far in the past',
    });
    expect(explainMetaError(JSON.stringify(err(100, { message: 'Invalid parameter' })))).toMatchObject({
      metaTitle: null,
      metaMessage: 'Invalid parameter',
    });
  });

  it("says 'Unknown error format' when unparseable", () => {
    expect(explainMetaError('<html>').metaMessage).toBe(UNKNOWN_ERROR_FORMAT);
    expect(explainMetaError(null, 'retry')).toMatchObject({
      title: 'Meta could not be reached',
      metaMessage: UNKNOWN_ERROR_FORMAT,
    });
  });
});
