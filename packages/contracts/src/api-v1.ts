import { z } from 'zod';
import { ApiKeyScope } from './api-keys.ts';
import { FileSettings, HardcodedValues, Mappings } from './workflow.ts';

// The public API's own payloads (issue 32). Resources reuse the session API's schemas where they are the same.

/** GET /api/v1/workspace: the workspace a key acts in, and the key itself (what `backsignal login` checks). */
export const V1Whoami = z.object({
  workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  key: z.object({ id: z.string(), name: z.string(), scope: ApiKeyScope }),
});
export type V1Whoami = z.infer<typeof V1Whoami>;

/** Lists are read by cursor: `nextCursor` of one page is the `cursor` of the next; null at the end. */
export const V1ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});
export type V1ListQuery = z.infer<typeof V1ListQuery>;

export const v1Page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() });

/** PUT /api/v1/uploads/{id}/mapping: a saved template by name, or the columns themselves, and the file's settings. */
export const V1MappingRequest = z
  .object({
    template: z.string().trim().min(1).max(200).optional(),
    mappings: Mappings.optional(),
    hardcodedValues: HardcodedValues.optional(),
    settings: FileSettings.partial().optional(),
  })
  .refine((b) => (b.template === undefined) !== (b.mappings === undefined), {
    message: 'Give either a template name or mappings, not both.',
    path: ['template'],
  });
export type V1MappingRequest = z.infer<typeof V1MappingRequest>;

/** POST /api/v1/uploads/{id}/jobs/prepare: what to do with rows that have errors, and with refund rows. */
export const V1PrepareRequest = z.object({
  /** Leave the rows with errors out and prepare the rest (decision 0055); without it, errors block the file. */
  skipErrorRows: z.boolean().optional(),
  /** Purchase rows with a negative value (decision 0098); asked only when the file has some. */
  refunds: z.enum(['skip', 'send']).optional(),
});
export type V1PrepareRequest = z.infer<typeof V1PrepareRequest>;

export const V1TokenReplace = z.object({ accessToken: z.string().trim().min(1).max(1000) });
export type V1TokenReplace = z.infer<typeof V1TokenReplace>;

export const V1Message = z.object({ message: z.string() });

/** One cell of an event row as JSON: the CSV's value, written as text. */
const Cell = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

export const EVENTS_MAX_ROWS = 10_000;

/**
 * POST /api/v1/events: rows as JSON objects (the CSV's columns), sent through the same pipeline as a file
 * (decision 0114): validation, correction, hashing, the pixel's ledger, batching and isolation of refused rows.
 */
export const V1EventsRequest = z
  .object({
    rows: z
      .array(z.record(z.string().min(1).max(500), Cell))
      .min(1, 'Send at least one row.')
      .max(EVENTS_MAX_ROWS, `Send at most ${EVENTS_MAX_ROWS} rows a call.`),
    template: z.string().trim().min(1).max(200).optional(),
    mappings: Mappings.optional(),
    hardcodedValues: HardcodedValues.optional(),
    settings: FileSettings.partial().optional(),
    /** The pixel account's id or its name. */
    pixelAccount: z.string().trim().min(1).max(200),
    testEventCode: z.string().trim().max(100).optional(),
    /** Leave out events this pixel already received (default true). */
    skipDelivered: z.boolean().optional(),
    refunds: z.enum(['skip', 'send']).optional(),
  })
  .refine((b) => (b.template === undefined) !== (b.mappings === undefined), {
    message: 'Give either a template name or mappings, not both.',
    path: ['template'],
  })
  .meta({
    examples: [
      {
        rows: [
          {
            Email: 'ann@example.com',
            Phone: '+1 512 555 0100',
            'Order total': '32.38',
            Currency: 'USD',
            'Created at': '2026-03-03 10:00',
          },
        ],
        template: 'Shopify orders',
        pixelAccount: 'Main store',
      },
    ],
  });
export type V1EventsRequest = z.infer<typeof V1EventsRequest>;

const RowNote = z.object({ field: z.string(), message: z.string() });

/**
 * One row's outcome: `sent` (Meta accepted it), `refused` (errors: not sent), `failed` (Meta refused it),
 * `skipped` (a repeat of an earlier row's event, already delivered to this pixel, or a refund left out), `pending`
 * (the send still runs: Meta held it back).
 * `corrected` and `dropped` list what validation changed or left out of a row that went.
 */
export const V1EventRow = z.object({
  index: z.number().int(),
  status: z.enum(['sent', 'refused', 'failed', 'skipped', 'pending']),
  errors: z.array(RowNote).optional(),
  corrected: z.array(RowNote).optional(),
  dropped: z.array(RowNote.extend({ reason: z.string() })).optional(),
  reason: z.string().optional(),
});
export type V1EventRow = z.infer<typeof V1EventRow>;

export const V1EventsResponse = z.object({
  uploadId: z.string(),
  runId: z.string().nullable(),
  /** `running`: Meta held the send back (a rate limit); its summary tells the rest. */
  status: z.enum(['completed', 'completed_with_errors', 'stopped', 'running', 'nothing_sent']),
  message: z.string().nullable(),
  counts: z.object({
    rows: z.number().int(),
    sent: z.number().int(),
    corrected: z.number().int(),
    dropped: z.number().int(),
    refused: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    pending: z.number().int(),
  }),
  rows: z.array(V1EventRow),
});
export type V1EventsResponse = z.infer<typeof V1EventsResponse>;
