import { z } from 'zod';

/** Public runtime settings the SPA reads from GET /api/config (nothing secret). */
export const PublicConfig = z.object({
  bookACallUrl: z.string(),
  captchaSiteKey: z.string().nullable(),
  /** 'dev' when the built-in development captcha is in use. */
  captchaMode: z.enum(['turnstile', 'dev', 'off']),
  marketingPixelId: z.string().nullable(),
  landingVariant: z.enum(['agency', 'csv', 'random']),
  maxUploadMb: z.number(),
  /** The beta's limits per account in any 24 hours (MB uploaded; rows for each of validate, prepare, send). */
  quotaUploadMbPerDay: z.number(),
  quotaRowsPerDay: z.number(),
  /** Days uploads and send history are kept after their last change. */
  retentionDays: z.number(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
