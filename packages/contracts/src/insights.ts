import { z } from 'zod';
import { ErrorExplanation } from './delivery.ts';

/** The identifier groups Insights charts (core's MATCH_KEY_GROUPS), in the same order. */
export const INSIGHT_MATCH_KEYS = ['email', 'phone', 'name', 'address', 'external_id'] as const;
export type InsightMatchKey = (typeof INSIGHT_MATCH_KEYS)[number];
export const INSIGHT_MATCH_KEY_LABELS: Record<InsightMatchKey, string> = {
  email: 'Email',
  phone: 'Phone',
  name: 'Name',
  address: 'Address',
  external_id: 'External ID',
};

/**
 * What validation fixed automatically in sent events, by group of fields (core's FIX_GROUPS, in the same order):
 * Insights counts the sent events that had at least one value of the group corrected.
 */
export const INSIGHT_FIX_GROUPS = [
  'email',
  'phone',
  'name',
  'date_of_birth',
  'address',
  'event_time',
  'value',
  'other',
] as const;
export type InsightFixGroup = (typeof INSIGHT_FIX_GROUPS)[number];
export const INSIGHT_FIX_GROUP_LABELS: Record<InsightFixGroup, string> = {
  email: 'Email addresses',
  phone: 'Phone numbers',
  name: 'Names',
  date_of_birth: 'Dates of birth',
  address: 'Addresses',
  event_time: 'Event times',
  value: 'Values and currencies',
  other: 'Other fields',
};

/** The ranges the screen offers; any from/to up to INSIGHT_MAX_DAYS is accepted. */
export const INSIGHT_RANGES = [7, 30, 90, 365] as const;
export const INSIGHT_MAX_DAYS = 366;
/** Longer ranges are charted a bar per week (decision 0122): a quarter (92 days) still gets a bar per day. */
export const INSIGHT_DAILY_MAX_DAYS = 92;
/** `source` filter value for files uploaded by hand. */
export const MANUAL_SOURCE = 'manual';

const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Use a date like 2026-11-28.' })
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'Use a date like 2026-11-28.' });

/** GET /api/insights: days are UTC dates, both ends included; without them the last 30 days. */
export const InsightsQuery = z
  .object({
    from: DAY.optional(),
    to: DAY.optional(),
    pixel: z.string().max(64).optional(),
    source: z
      .union([z.literal(MANUAL_SOURCE), z.uuid({ error: 'Choose a source from the list.' })])
      .optional(),
    stack: z.enum(['pixel', 'source']).default('pixel'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'The start date must be before the end date.' })
  .refine(
    (q) => !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < INSIGHT_MAX_DAYS,
    { error: `Choose at most ${INSIGHT_MAX_DAYS} days.` },
  );
export type InsightsQuery = z.infer<typeof InsightsQuery>;

const counts = z.array(z.number().int());

export const InsightsSeries = z.object({ key: z.string(), label: z.string(), sent: counts });
/**
 * The most series a stacked chart shows: more colours cannot be told apart. The rest are summed as one more series,
 * key INSIGHT_OTHER_SERIES, labelled "Other (n)".
 */
export const INSIGHT_MAX_SERIES = 7;
export const INSIGHT_OTHER_SERIES = 'other';

export const InsightsFailure = z.object({
  /** verdict|code|subcode|title|message, as the summary's failure groups. */
  key: z.string(),
  explanation: ErrorExplanation,
  events: z.number().int(),
  /** The sends that had it, most events first (at most 10), to open their summary. */
  sends: z.array(
    z.object({
      uploadId: z.string(),
      fileName: z.string().nullable(),
      day: z.string(),
      events: z.number().int(),
    }),
  ),
});

export const InsightsSourceRuns = z.object({
  sourceId: z.string(),
  name: z.string(),
  /** Null once the source was deleted. */
  status: z.enum(['active', 'paused']).nullable(),
  nextRunAt: z.string().nullable(),
  /** Runs per bucket (one number per entry of `days`) by outcome. */
  runs: z.object({ sent: counts, nothing_new: counts, paused: counts, failed: counts }),
});
export const INSIGHT_RUN_OUTCOMES = ['sent', 'nothing_new', 'paused', 'failed'] as const;

export const Insights = z.object({
  from: z.string(),
  to: z.string(),
  /**
   * A bar per day, or per ISO week for ranges over INSIGHT_DAILY_MAX_DAYS days (the first and last week cut to the
   * range).
   */
  bucket: z.enum(['day', 'week']),
  /** Each bucket's first day, in order: each series below has one number per bucket. */
  days: z.array(z.string()),
  options: z.object({
    pixels: z.array(z.object({ pixelId: z.string(), name: z.string() })),
    sources: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  totals: z.object({
    sent: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    /** Sent events whose identifiers were counted (sends before Insights existed were not). */
    keyed: z.number().int(),
    /** The average match estimate (0–10) of the keyed events, null without any. */
    score: z.number().nullable(),
    keys: z.record(z.enum(INSIGHT_MATCH_KEYS), z.number().int()),
    /**
     * Sent events whose corrections were counted: sends from before corrections were counted per send (decision
     * 0123) were not, and their events are not in `fixed` either.
     */
    fixesCounted: z.number().int(),
    /** Of those, the events with at least one value of each group corrected automatically. */
    fixed: z.record(z.enum(INSIGHT_FIX_GROUPS), z.number().int()),
  }),
  volume: z.object({
    stack: z.enum(['pixel', 'source']),
    /** Most sent first, at most INSIGHT_MAX_SERIES and the rest as one more (INSIGHT_OTHER_SERIES). */
    series: z.array(InsightsSeries),
    failed: counts,
    skipped: counts,
  }),
  matchKeys: z.object({
    keyed: counts,
    keys: z.record(z.enum(INSIGHT_MATCH_KEYS), counts),
    /** The day's average estimate (0–10), null on a day without keyed events. */
    score: z.array(z.number().nullable()),
  }),
  /** A source whose share of an identifier fell: a column may have vanished from its export. */
  drops: z.array(
    z.object({
      sourceId: z.string().nullable(),
      sourceName: z.string(),
      key: z.enum(INSIGHT_MATCH_KEYS),
      since: z.string(),
      before: z.number(),
      after: z.number(),
    }),
  ),
  failures: z.array(InsightsFailure),
  sourceRuns: z.array(InsightsSourceRuns),
});
export type Insights = z.infer<typeof Insights>;
export type InsightsFailure = z.infer<typeof InsightsFailure>;
export type InsightsSeries = z.infer<typeof InsightsSeries>;
export type InsightsSourceRuns = z.infer<typeof InsightsSourceRuns>;
