import { z } from 'zod';

/** What an endpoint can subscribe to (issue 32, decision 0117). */
export const WEBHOOK_EVENT_TYPES = [
  'send.completed',
  'send.failed',
  'source.run.completed',
  'source.paused',
  'pixel.token_refused',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'send.completed': 'A send finished',
  'send.failed': 'A send stopped',
  'source.run.completed': 'A source run finished',
  'source.paused': 'A source paused',
  'pixel.token_refused': "Meta refused a pixel account's token",
};

const Events = z
  .array(WebhookEventType)
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((e) => [...new Set(e)]);

const Url = z
  .string()
  .trim()
  .min(1, 'Enter the URL that receives the events.')
  .max(2000, 'Use a URL of at most 2,000 characters.')
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter a URL starting with https://.' }));

export const WebhookCreate = z.object({
  url: Url,
  description: z.string().trim().max(200).default(''),
  events: Events,
});
export type WebhookCreate = z.input<typeof WebhookCreate>;

export const WebhookUpdate = z.object({
  url: Url.optional(),
  description: z.string().trim().max(200).optional(),
  events: Events.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdate = z.input<typeof WebhookUpdate>;

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** Why Backsignal disabled it (three days of failures); null when enabled or disabled by hand. */
  disabledReason: z.string().nullable(),
  /** Since when every attempt failed; null while the last attempt succeeded. */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Creation and rotation: the only answers that carry the secret (`whsec_…`). */
export const WebhookWithSecret = z.object({ endpoint: WebhookEndpoint, secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

/** What a delivery carries: a subscribed event, or the one "Send test event" sends to any endpoint. */
export const WebhookDeliveryType = z.enum([...WEBHOOK_EVENT_TYPES, 'webhook.test']);
export type WebhookDeliveryType = z.infer<typeof WebhookDeliveryType>;

export const WebhookDelivery = z.object({
  id: z.string(),
  messageId: z.string(),
  eventType: WebhookDeliveryType,
  createdAt: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  /** The receiver's answer, cut to 1 KB, or why no answer came (timeout, refused address). */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const WebhookDeliveryPage = z.object({ deliveries: z.array(WebhookDelivery), total: z.number() });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;
