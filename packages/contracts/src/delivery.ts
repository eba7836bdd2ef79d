import { z } from 'zod';

/** POST /api/uploads/:id/send */
export const SendRequest = z.object({
  selectedAccountId: z
    .string({ message: 'Please select or save an account first' })
    .uuid('Please select or save an account first'),
  testEventCode: z.string().trim().max(100).nullish(),
  /** Leave out events this pixel already received (default). */
  skipDelivered: z.boolean().optional(),
});
export type SendRequest = z.infer<typeof SendRequest>;

export const RUN_STATUSES = ['running', 'completed', 'completed_with_errors', 'stopped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const SendResponse = z.object({ runId: z.string(), status: z.enum(RUN_STATUSES) });
export type SendResponse = z.infer<typeof SendResponse>;

/** Our plain-language reading of a Meta error, plus Meta's own words (spec §8). */
export const ErrorExplanation = z.object({
  title: z.string(),
  explanation: z.string(),
  fix: z.string(),
  metaTitle: z.string().nullable(),
  metaMessage: z.string(),
});
export type ErrorExplanation = z.infer<typeof ErrorExplanation>;

/** Spec §3 Batch, plus the CSV rows it carried and the explanation of its error. */
export const BatchSummary = z.object({
  batchId: z.string(),
  index: z.number().int(),
  status: z.enum(['sent', 'failed', 'pending', 'sending']),
  count: z.number().int(),
  firstRow: z.number().int(),
  lastRow: z.number().int(),
  /** Rows between firstRow and lastRow that this batch does not carry (isolated, skipped): the first few. */
  rowsNotInBatch: z.array(z.number().int()),
  /** How many rows between firstRow and lastRow this batch does not carry. */
  rowsNotInBatchCount: z.number().int(),
  attempts: z.number().int(),
  fbtraceId: z.string().nullable(),
  /** Meta's answer as JSON text (spec §3), null when the batch did not fail. */
  errorMessage: z.string().nullable(),
  explanation: ErrorExplanation.nullable(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const DeliveryProgress = z.object({
  /**
   * Events to send: the prepared count while the file is being read (at most the real one), exact once it was
   * read to the end; null when unknown (a run that stopped before that).
   */
  totalEvents: z.number().int().nullable(),
  batchesSent: z.number().int(),
  batchesFailed: z.number().int(),
  batchesRemaining: z.number().int(),
  eventsSent: z.number().int(),
  eventsFailed: z.number().int(),
  /** totalEvents less those sent or failed; null when totalEvents is. */
  eventsRemaining: z.number().int().nullable(),
  /**
   * Already delivered live to the pixel, so not sent: known from the start when nothing can be skipped (send
   * anyway, or a pixel with no earlier live delivery), else once counted; null until then.
   */
  eventsSkipped: z.number().int().nullable(),
  /** A rough estimate from the pace so far, in seconds; null until something was sent or once finished. */
  secondsLeft: z.number().int().nullable(),
});
export type DeliveryProgress = z.infer<typeof DeliveryProgress>;

/** Failed events that share one reason (Meta's code, subcode and words): one card on the summary. */
export const FailureGroup = z.object({
  /** Stable within a run: pass as `reason` to the batch list to show this group's batches. */
  key: z.string(),
  explanation: ErrorExplanation,
  events: z.number().int(),
  batches: z.number().int(),
  /** CSV row numbers (header = row 1) of the first few failed rows. */
  sampleRows: z.array(z.number().int()),
});
export type FailureGroup = z.infer<typeof FailureGroup>;

/** GET /api/uploads/:id/summary: spec §3 Summary with live progress. */
export const DeliverySummary = z.object({
  runId: z.string(),
  status: z.enum(RUN_STATUSES),
  totalBatches: z.number().int(),
  totalSent: z.number().int(),
  totalFailed: z.number().int(),
  /** `accountId`: the saved account the run sent with, null once deleted (its token can be replaced from here). */
  pixelAccount: z.object({
    name: z.string(),
    pixelId: z.string(),
    accountId: z.string().nullable().optional(),
  }),
  testEventCode: z.string().nullable(),
  /**
   * A bounded page of leaves. While running: failed batches only (the rest is in `progress`). Once finished:
   * failed batches first, then the others in file order, SUMMARY_PAGE at a time (`?batchOffset=`).
   */
  batches: z.array(BatchSummary),
  batchesListed: z.enum(['failed', 'all']),
  /** Pass as `batchOffset` for the next page; null when this page is the last. */
  nextBatchOffset: z.number().int().nullable(),
  progress: DeliveryProgress,
  /** Failed events grouped by reason, largest first. */
  failureGroups: z.array(FailureGroup),
  /** Rows with errors the user chose to leave out of the file before sending (docs/decisions/0055). */
  errorRowsSkipped: z.number().int().optional(),
  /** Refund rows (negative Purchase values) the user chose to leave out (docs/decisions/0098). */
  refundRowsSkipped: z.number().int().optional(),
  stopReason: z.enum(['token', 'permission', 'pixel', 'internal']).nullable(),
  stopExplanation: ErrorExplanation.nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Retrying a stopped send (POST /api/uploads/:id/send/retry, docs/decisions/0099). */
  retry: z
    .object({
      /** The run stopped on something the user can fix (token, permission, pixel) and may be retried now. */
      allowed: z.boolean(),
      /** This run retries an earlier stopped run of the same file. */
      isRetry: z.boolean(),
      /** Events the file's earlier runs delivered (this run leaves them out). */
      sentBefore: z.number().int(),
    })
    .optional(),
});
export type DeliverySummary = z.infer<typeof DeliverySummary>;

export const SUMMARY_PAGE = 200;
export const SummaryQuery = z.object({ batchOffset: z.coerce.number().int().min(0).optional() });

export const BATCH_FILTERS = ['all', 'failed', 'sent', 'open'] as const;
export type BatchFilter = (typeof BATCH_FILTERS)[number];
export const BATCH_PAGE = 20;
/** GET /api/uploads/:id/batches: one page of the latest run's batches, in file order. */
export const BatchesQuery = z.object({
  status: z.enum(BATCH_FILTERS).default('all'),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(SUMMARY_PAGE).default(BATCH_PAGE),
});
export type BatchesQuery = z.infer<typeof BatchesQuery>;
export const BatchesPage = z.object({
  batches: z.array(BatchSummary),
  /** Batches matching the filter. */
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type BatchesPage = z.infer<typeof BatchesPage>;

/** GET /api/uploads/:id/delivered?accountId= */
export const DeliveredQuery = z.object({ accountId: z.string().uuid() });
export const DeliveredResponse = z.object({
  /** Events this pixel already received live: skipped by default. */
  alreadyDelivered: z.number().int(),
  /** Events it received only as test events (test_event_code): always sent again. */
  alreadyDeliveredTest: z.number().int(),
});
export type DeliveredResponse = z.infer<typeof DeliveredResponse>;

/**
 * GET /api/uploads/:id/suggested-account: the account the send step preselects, the last one used successfully for
 * a file like this one (same columns or same source) whose last test or send did not fail; null = none.
 */
export const SuggestedAccount = z.object({ accountId: z.string().nullable() });
export type SuggestedAccount = z.infer<typeof SuggestedAccount>;
