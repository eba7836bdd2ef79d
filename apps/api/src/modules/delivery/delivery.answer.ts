import { isThrottle, MAX_RETRY_AFTER_MS, type Outcome } from '@backsignal/core';
import type { PostEventsResult } from '../../integrations/meta-graph/events-client.ts';
import type { BatchError, StopReason } from './delivery.repo.ts';

/** What the engine does with Meta's answer to one batch. */
export type AnswerStep =
  | { step: 'sent'; eventsReceived: number; fbtraceId: string | null }
  /** A rate limit: the whole run waits (at least `retryAfterMs`); the attempt does not count. */
  | { step: 'throttled'; retryAfterMs: number; error: BatchError }
  /** Worth another attempt of this batch after its backoff (never shorter than Meta's Retry-After). */
  | { step: 'retry'; retryAfterSeconds: number | null; error: BatchError }
  /** No batch of this run can succeed: this one fails and the run stops with `reason`. */
  | { step: 'stop'; reason: StopReason; raw: string; error: BatchError }
  /** Meta refused rows of the batch: it is split so the good rows still go (`badIndex` when Meta named one). */
  | { step: 'split'; badIndex: number | null; error: BatchError };

export function batchError(
  outcome: Extract<Outcome, { kind: 'error' }>,
  bodyText: string | null,
): BatchError {
  const e = outcome.error;
  return {
    verdict: outcome.verdict,
    code: e?.code ?? null,
    subcode: e?.subcode ?? null,
    title: e?.userTitle ?? null,
    message: e?.userMessage ?? e?.message ?? null,
    raw: bodyText ?? outcome.cause,
  };
}

/** The error stored on a batch that ran out of attempts without an answer worth keeping. */
export const EXHAUSTED: BatchError = {
  verdict: 'retry',
  code: null,
  subcode: null,
  title: null,
  message: null,
  raw: 'attempts_exhausted',
};

export function classifyAnswer({ outcome: out, bodyText }: PostEventsResult): AnswerStep {
  if (out.kind === 'ok')
    return { step: 'sent', eventsReceived: out.eventsReceived, fbtraceId: out.fbtraceId };
  const error = batchError(out, bodyText);
  if (isThrottle(out))
    return {
      step: 'throttled',
      retryAfterMs: Math.min(MAX_RETRY_AFTER_MS, (out.retryAfterSeconds ?? 0) * 1000),
      error,
    };
  switch (out.verdict) {
    case 'retry':
      return { step: 'retry', retryAfterSeconds: out.retryAfterSeconds, error };
    case 'token':
    case 'permission':
    case 'pixel':
      return { step: 'stop', reason: out.verdict, raw: bodyText ?? out.cause, error };
    case 'endpoint':
      return {
        step: 'stop',
        reason: 'internal',
        raw: `The Conversions API address answered with something that is not a Meta answer (${out.cause}), so Backsignal stopped instead of splitting the file into thousands of requests.`,
        error,
      };
    case 'bad_rows':
      return { step: 'split', badIndex: out.badIndex, error };
  }
}
