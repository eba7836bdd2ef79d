import { z } from 'zod';
import { FileSettings, HardcodedValues, Mappings } from './workflow.ts';

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM (24-hour).');

export const SourceSchedule = z.discriminatedUnion('every', [
  z.object({ every: z.literal('hour'), minute: z.number().int().min(0).max(59) }),
  z.object({ every: z.literal('day'), time: Time }),
  z.object({ every: z.literal('week'), weekday: z.number().int().min(0).max(6), time: Time }),
]);
export type SourceSchedule = z.infer<typeof SourceSchedule>;

export const SOURCE_KINDS = ['csv_url', 'sftp', 's3'] as const;
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

/** An S3-compatible bucket (AWS S3, Cloudflare R2, MinIO): each object under the prefix is sent once. */
export const S3Connection = z.object({
  kind: z.literal('s3'),
  /** Empty for AWS S3; the endpoint URL of R2, MinIO or another S3-compatible store. */
  endpoint: z.string().trim().max(500).default(''),
  region: z
    .string()
    .trim()
    .max(50)
    .regex(/^[a-z0-9-]*$/, 'A region has only lowercase letters, digits and dashes, such as eu-west-1.')
    .default(''),
  bucket: z
    .string()
    .trim()
    .min(1, 'Enter the bucket name.')
    .max(255)
    .regex(/^[A-Za-z0-9._-]+$/, 'A bucket name has only letters, digits, dots, dashes and underscores.'),
  prefix: z.string().trim().max(1000).default(''),
  accessKeyId: z.string().trim().min(1, 'Enter the access key ID.').max(200),
  /** The secret access key; omitted on edit to keep the stored one. */
  secret: z.string().max(4000).optional(),
  /** Path-style addressing (endpoint/bucket/key), which MinIO and some R2 setups need. */
  pathStyle: z.boolean().default(false),
});
export type S3Connection = z.infer<typeof S3Connection>;

/** A folder on an SFTP server: each file matching the pattern is sent once. */
export const SftpConnection = z.object({
  kind: z.literal('sftp'),
  host: z.string().trim().min(1, 'Enter the server name.').max(255),
  port: z.number().int().min(1).max(65535).default(22),
  username: z.string().trim().min(1, 'Enter the user name.').max(200),
  auth: z.enum(['password', 'key']).default('password'),
  /** The password or the private key (OpenSSH or PEM); omitted on edit to keep the stored one. */
  secret: z.string().max(20_000).optional(),
  /** The private key's passphrase, when it has one (stored with the key). */
  passphrase: z.string().max(1000).optional(),
  /** Absolute, or relative to the user's home folder; empty is the home folder itself. */
  folder: z.string().trim().max(1000).default(''),
  /** Which files to read, as a glob on the file name: `*.csv`, `leads-*.csv`. */
  pattern: z.string().trim().min(1, 'Enter a file name pattern, such as *.csv.').max(200).default('*.csv'),
  /** After a file is sent: remember it (name, size and time) or move it into `processed/` beside it. */
  afterProcessing: z.enum(['remember', 'move']).default('remember'),
  /** The server's host key (SHA256:… fingerprint) seen by "Test fetch"; empty trusts the first one seen. */
  hostKey: z.string().max(200).nullable().optional(),
});
export type SftpConnection = z.infer<typeof SftpConnection>;

export const SourceConnection = z.discriminatedUnion('kind', [
  CsvUrlConnection,
  S3Connection,
  SftpConnection,
]);
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
    /** SFTP and S3: the file or object read, and how many are waiting to be sent (this one included). */
    item: z
      .object({ name: z.string(), modifiedAt: z.string().nullable(), waiting: z.number().int() })
      .optional(),
    /** SFTP: the server's host key fingerprint, stored when the source is saved. */
    hostKey: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), reason: z.string(), hostKey: z.string().optional() }),
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
  /** SFTP and S3: the file or object this run read. */
  itemName: z.string().nullable(),
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
  /** Uploads its runs made that are still kept (runs that sent nothing keep none): the dashboard's group. */
  uploadCount: z.number().int(),
});
export type SourceSummary = z.infer<typeof SourceSummary>;

/** A source's connection as the API shows it: everything but the secret, which is only said to be stored. */
export const SourceConnectionView = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('csv_url'),
    url: z.string(),
    auth: z.enum(['none', 'header', 'basic']),
    headerName: z.string().nullable(),
    username: z.string().nullable(),
    hasSecret: z.boolean(),
  }),
  z.object({
    kind: z.literal('s3'),
    endpoint: z.string(),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string(),
    accessKeyId: z.string(),
    pathStyle: z.boolean(),
    hasSecret: z.boolean(),
  }),
  z.object({
    kind: z.literal('sftp'),
    host: z.string(),
    port: z.number().int(),
    username: z.string(),
    auth: z.enum(['password', 'key']),
    folder: z.string(),
    pattern: z.string(),
    afterProcessing: z.enum(['remember', 'move']),
    hostKey: z.string().nullable(),
    hasSecret: z.boolean(),
  }),
]);
export type SourceConnectionView = z.infer<typeof SourceConnectionView>;

export const SourceDetail = SourceSummary.extend({
  connection: SourceConnectionView,
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

/** DELETE /api/sources/:id?deleteUploads=true also deletes the uploads its runs made (default: they stay). */
export const DeleteSourceQuery = z.object({
  deleteUploads: z.enum(['true', 'false']).default('false'),
});

type Nullable<T> = { [K in keyof T]: T[K] | null };
type SecretTarget =
  | Nullable<Pick<CsvUrlConnection, 'kind' | 'url' | 'auth' | 'headerName' | 'username'>>
  | Pick<S3Connection, 'kind' | 'endpoint' | 'accessKeyId'>
  | Pick<SftpConnection, 'kind' | 'host' | 'port' | 'username' | 'auth'>;

/**
 * Scheme, authority (lowercased) and path, without query or fragment: the one place a stored header or password
 * may go; null when the URL has none. Another spelling is another place.
 */
const originAndPath = (url: string) => {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#\\]*)([^?#]*)/i.exec(url.trim());
  return m ? `${m[1]!.toLowerCase()}${m[2] || '/'}` : null;
};
/**
 * Whether two URLs name the same file (scheme, authority and path), the one place a stored header, password or
 * query secret may go.
 */
export const sameUrlTarget = (a: string, b: string) => {
  const o = originAndPath(a);
  return o !== null && o === originAndPath(b);
};
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim() === (b ?? '').trim();

/**
 * Whether a stored secret may serve a changed connection: only when it still goes to the same place, as the same
 * identity (same kind, and the same URL origin, path and auth, S3 endpoint and access key ID, or SFTP server, port, user
 * and auth). Otherwise an edit, or a "Test fetch" of a saved source, could send the stored password or key to
 * another server without the owner typing it again.
 */
export function sameSecretTarget(stored: SecretTarget, next: SecretTarget): boolean {
  if (stored.kind === 'csv_url' && next.kind === 'csv_url') {
    // The same file, not only the same site: another path on a shared host (a storage bucket, a file host) may be
    // someone else's, and would receive the stored header (issue 30).
    return (
      sameUrlTarget(stored.url ?? '', next.url ?? '') &&
      stored.auth === next.auth &&
      same(stored.headerName || 'Authorization', next.headerName || 'Authorization') &&
      same(stored.username, next.username)
    );
  }
  if (stored.kind === 's3' && next.kind === 's3')
    return (
      same(stored.endpoint.replace(/\/+$/, ''), next.endpoint.replace(/\/+$/, '')) &&
      same(stored.accessKeyId, next.accessKeyId)
    );
  if (stored.kind === 'sftp' && next.kind === 'sftp')
    return (
      same(stored.host.toLowerCase(), next.host.toLowerCase()) &&
      stored.port === next.port &&
      same(stored.username, next.username) &&
      stored.auth === next.auth
    );
  return false;
}
