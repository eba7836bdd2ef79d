import { z } from 'zod';

/** Stable error codes: the only error vocabulary the API speaks. HTTP status lives in apps/api/src/errors. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'EMAIL_NOT_VERIFIED',
  'XSRF_INVALID',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'INVALID_STATE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'CAPTCHA_FAILED',
  // Login past an account's failure limit: the same request again with a captcha token (ADR 0010).
  'CAPTCHA_REQUIRED',
  'UPSTREAM_FAILED',
  // An Idempotency-Key sent again with another request: it names the first one (decision 0113).
  'IDEMPOTENCY_KEY_REUSED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error response has this shape; the SPA shows `message` (spec §8). */
export const ErrorBody = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  requestId: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Plain success acknowledgement carrying a user-facing message. */
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;
