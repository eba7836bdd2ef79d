import { z } from 'zod';
import { FileSettings, HardcodedValues, Mappings } from './workflow.ts';

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM (24-hour).');

export const SourceSchedule = z.discriminatedUnion('every', [
  z.object({ every: z.literal('hour'), minute: z.number().int().min(0).max(59) }),
  z.object({ every: z.literal('day'), time: Time }),
  z.object({ every: z.literal('week'), weekday: z.number().int().min(0).max(6), time: Time }),
]);
export type SourceSchedule = z.infer<typeof SourceSchedule>;

export const SOURCE_KINDS = ['csv_url'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** How a CSV URL is fetched. Secrets (token, password) travel only towards the server, never back. */
export const CsvUrlConnection = z.object({
  kind: z.literal('csv_url'),
  url: z.string().trim().min(1, 'Enter the URL of the CSV file.').max(2000),
  auth: z.enum(['none', 'header', 'basic']).default('none'),
  /** Header name for auth 'header' (default Authorization); username for 'basic'. */
  headerName: z.string().trim().max(100).optional(),
  username: z.string().max(200).optional(),
  /** The token or password; omitted on edit to keep the stored one. */
  secret: z.string().max(4000).optional(),
});
export type CsvUrlConnection = z.infer<typeof CsvUrlConnection>;

export const SourceConnection = CsvUrlConnection;
export type SourceConnection = z.infer<typeof SourceConnection>;

/** POST /api/sources/test-fetch: the connection, and for an existing source its id (to use its stored secret). */
export const TestFetchRequest = z.object({
  connection: SourceConnection,
  sourceId: z.string().max(64).optional(),
});
export type TestFetchRequest = z.infer<typeof TestFetchRequest>;

export const TestFetchResponse = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    headers: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    rowCount: z.number().int(),
    sizeBytes: z.number().int(),
    samples: z.record(z.string(), z.array(z.string())),
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type TestFetchResponse = z.infer<typeof TestFetchResponse>;

export const SourceInput = z.object({
  name: z.string().trim().min(1, 'Give the source a name.').max(120),
  connection: SourceConnection,
  mappings: Mappings,
  hardcodedValues: HardcodedValues.default({}),
  settings: FileSettings,
  pixelAccountId: z.string().max(64),
  testEventCode: z.string().trim().max(100).optional().nullable(),
  schedule: SourceSchedule,
  /** The owner's IANA time zone the schedule is read in. */
  timeZone: z.string().min(1).max(64),
  /** Share of rows with errors above which a run sends nothing and the source pauses (default 0.2). */
  errorThreshold: z.number().min(0).max(1).default(0.2),
});
export type SourceInput = z.infer<typeof SourceInput>;

export const SOURCE_RUN_STATUSES = ['running', 'sent', 'nothing_new', 'paused', 'failed'] as const;
export type SourceRunStatus = (typeof SOURCE_RUN_STATUSES)[number];

export const SourceRunSummary = z.object({
  id: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  status: z.enum(SOURCE_RUN_STATUSES),
  dueAt: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  uploadId: z.string().nullable(),
  rowsRead: z.number().int(),
  rowsSkipped: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Events left out because the pixel already received them (the ledger). */
  alreadyDelivered: z.number().int(),
  message: z.string().nullable(),
  /** The skipped rows: row number and why (first 100). */
  skippedRows: z.array(z.object({ rowNumber: z.number().int(), message: z.string() })),
});
export type SourceRunSummary = z.infer<typeof SourceRunSummary>;

export const SourceSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SOURCE_KINDS),
  schedule: SourceSchedule,
  scheduleText: z.string(),
  timeZone: z.string(),
  pixelAccount: z.object({ id: z.string(), name: z.string(), pixelId: z.string() }).nullable(),
  status: z.enum(['active', 'paused']),
  pauseReason: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  lastRun: SourceRunSummary.nullable(),
});
export type SourceSummary = z.infer<typeof SourceSummary>;

export const SourceDetail = SourceSummary.extend({
  connection: z.object({
    kind: z.enum(SOURCE_KINDS),
    url: z.string(),
    auth: z.enum(['none', 'header', 'basic']),
    headerName: z.string().nullable(),
    username: z.string().nullable(),
    /** Whether a secret is stored; the secret itself is never returned. */
    hasSecret: z.boolean(),
  }),
  mappings: Mappings,
  hardcodedValues: HardcodedValues,
  settings: FileSettings,
  testEventCode: z.string().nullable(),
  errorThreshold: z.number(),
});
export type SourceDetail = z.infer<typeof SourceDetail>;

export const SourceList = z.object({ sources: z.array(SourceSummary) });
export type SourceList = z.infer<typeof SourceList>;

export const SourceRunList = z.object({ runs: z.array(SourceRunSummary) });
export type SourceRunList = z.infer<typeof SourceRunList>;
