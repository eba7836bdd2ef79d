import type { ErrorCode } from '@backsignal/contracts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  EMAIL_NOT_VERIFIED: 403,
  XSRF_INVALID: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_STATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  CAPTCHA_FAILED: 400,
  CAPTCHA_REQUIRED: 403,
  UPSTREAM_FAILED: 502,
  IDEMPOTENCY_KEY_REUSED: 422,
  INTERNAL: 500,
};

/** The answer to any request past a rate limit that has no more specific message. */
export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

/** An expected failure with a stable code and a message safe to show the user. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    /** For RATE_LIMITED: seconds until the call can succeed, sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('VALIDATION_FAILED', message, fields);
