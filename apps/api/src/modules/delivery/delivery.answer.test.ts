import { classifyNetworkFailure, classifyResponse } from '@backsignal/core';
import { describe, expect, it } from 'vitest';
import { classifyAnswer } from './delivery.answer.ts';

const answer = (status: number, body: object | string, retryAfter: string | null = null) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    outcome: classifyResponse({ status, body: text, retryAfter, nowMs: 0 }),
    bodyText: text,
  };
};
const graphError = (code: number, extra: object = {}) => ({
  error: { message: 'x', type: 'OAuthException', code, fbtrace_id: 'T', ...extra },
});

describe('classifyAnswer', () => {
  it('sent: what Meta received and its trace id', () => {
    expect(classifyAnswer(answer(200, { events_received: 3, fbtrace_id: 'abc' }))).toEqual({
      step: 'sent',
      eventsReceived: 3,
      fbtraceId: 'abc',
    });
  });

  it('a rate limit holds the run back, never longer than Meta may ask', () => {
    expect(classifyAnswer(answer(400, graphError(17)))).toMatchObject({ step: 'throttled', retryAfterMs: 0 });
    expect(classifyAnswer(answer(429, '', '30'))).toMatchObject({ step: 'throttled', retryAfterMs: 30_000 });
    const long = classifyAnswer(answer(429, '', String(24 * 3600)));
    expect(long.step === 'throttled' && long.retryAfterMs).toBeLessThan(24 * 3600 * 1000);
  });

  it('transient errors and lost connections are retried', () => {
    expect(classifyAnswer(answer(500, graphError(2))).step).toBe('retry');
    expect(classifyAnswer({ outcome: classifyNetworkFailure('timeout'), bodyText: null })).toMatchObject({
      step: 'retry',
      error: { verdict: 'retry', raw: 'timeout' },
    });
  });

  it("an expired token stops the run with Meta's answer", () => {
    const body = graphError(190);
    expect(classifyAnswer(answer(400, body))).toMatchObject({
      step: 'stop',
      reason: 'token',
      raw: JSON.stringify(body),
      error: { code: 190, verdict: 'token' },
    });
  });

  it('an address that is not Meta stops the run with a plain reason instead of splitting', () => {
    const step = classifyAnswer(answer(404, '<html>not found</html>'));
    expect(step).toMatchObject({ step: 'stop', reason: 'internal' });
    expect(step.step === 'stop' && step.raw).toMatch(/not a Meta answer/);
  });

  it('rows Meta refused split the batch, at the row it named when it named one', () => {
    const named = graphError(100, {
      error_subcode: 2804003,
      error_user_msg: "$['data'][2]: event_time too old",
    });
    const step = classifyAnswer(answer(400, named));
    expect(step).toMatchObject({ step: 'split', error: { verdict: 'bad_rows', code: 100 } });
  });
});
