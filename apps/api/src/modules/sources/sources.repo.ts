import type { FileSettings, SourceKind, SourceRunStatus, SourceSchedule } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import type { SealedToken } from '../pixels/token-crypto.ts';
import { jsonColumn } from '../../db/json-column.ts';
import { outboxInsert } from '../webhooks/webhook-outbox.repo.ts';

/** The webhook event of the source runs the statement's `ended` CTE just finished: ids, status and counts. */
const RUN_ENDED_WEBHOOK = outboxInsert(`select r.workspace_id, 'source.run.completed',
  jsonb_build_object('sourceId', r.source_id, 'sourceRunId', r.id, 'status', r.status, 'trigger', r.trigger,
    'uploadId', r.upload_id, 'sendRunId', r.send_run_id, 'rowsRead', r.rows_read, 'rowsSkipped', r.rows_skipped)
  from ended r`);
import { insightsCounters } from '../insights/insights-counters.repo.ts';

export interface StoredCsvUrl {
  kind: 'csv_url';
  url: string;
  auth: 'none' | 'header' | 'basic';
  headerName: string | null;
  username: string | null;
}
export interface StoredS3 {
  kind: 's3';
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  pathStyle: boolean;
}
export interface StoredSftp {
  kind: 'sftp';
  host: string;
  port: number;
  username: string;
  auth: 'password' | 'key';
  folder: string;
  pattern: string;
  afterProcessing: 'remember' | 'move';
  /** SHA256:… fingerprint trusted for this server; null until the first connection (trust on first use). */
  hostKey: string | null;
}
/** Everything needed to connect except the secret. */
export type StoredConnection = StoredCsvUrl | StoredS3 | StoredSftp;

export interface SourceRow {
  id: string;
  workspaceId: string;
  name: string;
  kind: SourceKind;
  connection: StoredConnection;
  sealed: SealedToken | null;
  mappings: Record<string, string>;
  hardcodedValues: Record<string, string>;
  settings: FileSettings;
  pixelAccountId: string | null;
  testEventCode: string | null;
  schedule: SourceSchedule;
  timeZone: string;
  errorThreshold: number;
  status: 'active' | 'paused';
  pauseReason: string | null;
  nextRunAt: Date | null;
  runRequestedAt: Date | null;
  /** Who asked for that run; null for a scheduled run or a backlog's next file. */
  runRequestedBy: string | null;
  /** When a run first remembered its rows with errors; null: the threshold counts every row (decision 0100). */
  badRowsKnownAt: Date | null;
}

export interface SourceRunRow {
  id: string;
  sourceId: string;
  workspaceId: string;
  trigger: 'schedule' | 'manual';
  status: SourceRunStatus;
  dueAt: Date | null;
  startedAt: Date;
  finishedAt: Date | null;
  uploadId: string | null;
  sendRunId: string | null;
  rowsRead: number;
  rowsSkipped: number;
  skippedRows: { rowNumber: number; message: string }[];
  message: string | null;
  itemName: string | null;
  sent: number;
  failed: number;
  alreadyDelivered: number;
}

const buf = (v: unknown) => Buffer.from(v as Uint8Array);
/**
 * Runs one account may have in flight across every worker (issue 30). A worker runs two at a time, so an account
 * whose sources hang on slow servers holds at most one of them: its other due sources wait behind every other
 * account's, and no account delays another's schedule by more than a claim. Claims take turns (lockClaims), so
 * the bound holds across workers.
 */
export const RUNS_PER_ACCOUNT = 1;
const CLAIM_LOCK_ID = 724_311_023;

const isUuid = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

const COLS = `id, workspace_id, name, kind, connection, secret_ciphertext, secret_iv, secret_tag, secret_key_version, mappings,
  hardcoded_values, settings, pixel_account_id, test_event_code, schedule, time_zone, error_threshold, status,
  pause_reason, next_run_at, run_requested_at, run_requested_by, bad_rows_known_at`;

function toSource(r: Record<string, unknown>): SourceRow {
  return {
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    name: r.name as string,
    kind: r.kind as SourceKind,
    // Rows written before SFTP and S3 existed have no kind inside the connection.
    connection: { ...jsonColumn<object>(r.connection), kind: r.kind } as StoredConnection,
    sealed: r.secret_ciphertext
      ? {
          ciphertext: buf(r.secret_ciphertext),
          iv: buf(r.secret_iv),
          tag: buf(r.secret_tag),
          keyVersion: Number(r.secret_key_version),
        }
      : null,
    mappings: jsonColumn(r.mappings),
    hardcodedValues: jsonColumn(r.hardcoded_values),
    settings: jsonColumn(r.settings),
    pixelAccountId: (r.pixel_account_id as string | null) ?? null,
    testEventCode: (r.test_event_code as string | null) ?? null,
    schedule: jsonColumn(r.schedule),
    timeZone: r.time_zone as string,
    errorThreshold: Number(r.error_threshold),
    status: r.status as SourceRow['status'],
    pauseReason: (r.pause_reason as string | null) ?? null,
    nextRunAt: (r.next_run_at as Date | null) ?? null,
    runRequestedAt: (r.run_requested_at as Date | null) ?? null,
    runRequestedBy: (r.run_requested_by as string | null) ?? null,
    badRowsKnownAt: (r.bad_rows_known_at as Date | null) ?? null,
  };
}

// Sent and failed come from the send run's committed batch leaves, as on the send summary.
const RUN_COLS = `r.id, r.source_id, r.workspace_id, r.trigger, r.status, r.due_at, r.started_at, r.finished_at, r.upload_id,
  r.send_run_id, r.rows_read, r.rows_skipped, r.skipped_rows, r.message, r.item_name,
  coalesce(sr.skipped_events, r.already_delivered, 0) as already_delivered,
  coalesce((select sum(b.event_count) from send_batches b where b.run_id = r.send_run_id and b.status = 'sent'), 0)::int as sent,
  coalesce((select sum(b.event_count) from send_batches b where b.run_id = r.send_run_id and b.status = 'failed'), 0)::int as failed`;
const RUN_FROM = 'source_runs r left join send_runs sr on sr.id = r.send_run_id';

function toRun(r: Record<string, unknown>): SourceRunRow {
  return {
    id: r.id as string,
    sourceId: r.source_id as string,
    workspaceId: r.workspace_id as string,
    trigger: r.trigger as SourceRunRow['trigger'],
    status: r.status as SourceRunStatus,
    dueAt: (r.due_at as Date | null) ?? null,
    startedAt: r.started_at as Date,
    finishedAt: (r.finished_at as Date | null) ?? null,
    uploadId: (r.upload_id as string | null) ?? null,
    sendRunId: (r.send_run_id as string | null) ?? null,
    rowsRead: Number(r.rows_read),
    rowsSkipped: Number(r.rows_skipped),
    skippedRows: jsonColumn(r.skipped_rows),
    message: (r.message as string | null) ?? null,
    itemName: (r.item_name as string | null) ?? null,
    sent: Number(r.sent),
    failed: Number(r.failed),
    alreadyDelivered: Number(r.already_delivered),
  };
}

export interface SourceWrite {
  name: string;
  kind: SourceKind;
  connection: StoredConnection;
  /** undefined keeps the stored secret; null removes it. */
  sealed?: SealedToken | null;
  mappings: object;
  hardcodedValues: object;
  settings: FileSettings;
  pixelAccountId: string;
  testEventCode: string | null;
  schedule: SourceSchedule;
  timeZone: string;
  errorThreshold: number;
  nextRunAt: Date;
}

const secretParams = (s: SealedToken | null | undefined) =>
  s ? [s.ciphertext, s.iv, s.tag, s.keyVersion] : [null, null, null, null];

export const sourcesRepo = {
  async insert(db: Queryable, id: string, workspaceId: string, s: SourceWrite) {
    await db.query(
      `insert into sources (id, workspace_id, name, kind, connection, secret_ciphertext, secret_iv, secret_tag,
         secret_key_version, mappings, hardcoded_values, settings, pixel_account_id, test_event_code, schedule,
         time_zone, error_threshold, next_run_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        id,
        workspaceId,
        s.name,
        s.kind,
        JSON.stringify(s.connection),
        ...secretParams(s.sealed),
        JSON.stringify(s.mappings),
        JSON.stringify(s.hardcodedValues),
        JSON.stringify(s.settings),
        s.pixelAccountId,
        s.testEventCode,
        JSON.stringify(s.schedule),
        s.timeZone,
        s.errorThreshold,
        s.nextRunAt,
      ],
    );
  },
  async update(db: Queryable, id: string, workspaceId: string, s: SourceWrite) {
    const keep = s.sealed === undefined;
    await db.query(
      `update sources set name = $3, kind = $4, connection = $5,
         secret_ciphertext = case when $18 then secret_ciphertext else $6 end,
         secret_iv = case when $18 then secret_iv else $7 end,
         secret_tag = case when $18 then secret_tag else $8 end,
         secret_key_version = case when $18 then secret_key_version else $9 end,
         mappings = $10, hardcoded_values = $11, settings = $12, pixel_account_id = $13, test_event_code = $14,
         schedule = $15, time_zone = $16, error_threshold = $17,
         next_run_at = case when status = 'active' then $19 else next_run_at end, updated_at = now()
       where id = $1 and workspace_id = $2`,
      [
        id,
        workspaceId,
        s.name,
        s.kind,
        JSON.stringify(s.connection),
        ...secretParams(s.sealed ?? null),
        JSON.stringify(s.mappings),
        JSON.stringify(s.hardcodedValues),
        JSON.stringify(s.settings),
        s.pixelAccountId,
        s.testEventCode,
        JSON.stringify(s.schedule),
        s.timeZone,
        s.errorThreshold,
        keep,
        s.nextRunAt,
      ],
    );
  },
  async find(db: Queryable, workspaceId: string, id: string): Promise<SourceRow | undefined> {
    if (!isUuid(id)) return undefined;
    const r = await db.query(`select ${COLS} from sources where id = $1 and workspace_id = $2`, [
      id,
      workspaceId,
    ]);
    return r.rows[0] ? toSource(r.rows[0]) : undefined;
  },
  /** CSV URL sources whose URL has a query: those stored before decision 0102 may hold secret values plain. */
  async csvUrlsWithQuery(db: Queryable): Promise<SourceRow[]> {
    const r = await db.query(
      `select ${COLS} from sources where kind = 'csv_url' and connection->>'url' like '%?%' order by id`,
    );
    return r.rows.map(toSource);
  },
  /**
   * Stores a CSV URL with its values masked and their envelope, only while the row still has the URL and sealed
   * secret it was read with: an edit in between (or another instance doing the same) wins. Answers whether it
   * was written.
   */
  async sealUrl(
    db: Queryable,
    s: Pick<SourceRow, 'id' | 'connection' | 'sealed'>,
    connection: StoredCsvUrl,
    sealed: SealedToken | null,
  ): Promise<boolean> {
    const was = s.connection.kind === 'csv_url' ? s.connection.url : null;
    const r = await db.query(
      `update sources set connection = $3, secret_ciphertext = $4, secret_iv = $5, secret_tag = $6,
         secret_key_version = $7, updated_at = now()
       where id = $1 and connection->>'url' = $2 and secret_ciphertext is not distinct from $8 returning id`,
      [s.id, was, JSON.stringify(connection), ...secretParams(sealed), s.sealed?.ciphertext ?? null],
    );
    return r.rows.length > 0;
  },
  async get(db: Queryable, id: string): Promise<SourceRow | undefined> {
    const r = await db.query(`select ${COLS} from sources where id = $1`, [id]);
    return r.rows[0] ? toSource(r.rows[0]) : undefined;
  },
  async countForWorkspace(db: Queryable, workspaceId: string): Promise<number> {
    const r = await db.query<{ n: number }>(
      'select count(*)::int as n from sources where workspace_id = $1',
      [workspaceId],
    );
    return r.rows[0]!.n;
  },
  async list(db: Queryable, workspaceId: string): Promise<SourceRow[]> {
    const r = await db.query(`select ${COLS} from sources where workspace_id = $1 order by created_at, id`, [
      workspaceId,
    ]);
    return r.rows.map(toSource);
  },
  async delete(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (
      (await db.query('delete from sources where id = $1 and workspace_id = $2', [id, workspaceId]))
        .rowCount > 0
    );
  },
  async pause(db: Queryable, workspaceId: string, id: string, reason: string | null): Promise<boolean> {
    if (!isUuid(id)) return false;
    // The webhook event only when it was active: pausing a paused source again changes nothing anyone waits for.
    const r = await db.query<{ n: number }>(
      `with paused as (update sources s set status = 'paused', pause_reason = $3, updated_at = now()
         from sources was where s.id = $1 and s.workspace_id = $2 and was.id = s.id
         returning s.id, s.workspace_id, was.status as was),
       hooked as (${outboxInsert(`select p.workspace_id, 'source.paused',
         jsonb_build_object('sourceId', p.id, 'reason', case when $3::text is null then 'manual' else 'automatic' end)
         from paused p where p.was = 'active'`)})
       select count(*)::int as n from paused`,
      [id, workspaceId, reason],
    );
    return r.rows[0]!.n > 0;
  },
  async resume(db: Queryable, workspaceId: string, id: string, nextRunAt: Date): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await db.query(
      `update sources set status = 'active', pause_reason = null, next_run_at = $3, updated_at = now()
       where id = $1 and workspace_id = $2`,
      [id, workspaceId, nextRunAt],
    );
    return r.rowCount > 0;
  },
  /** Pauses every active source sending to this pixel account; answers the ones it paused (once). */
  async pauseForAccount(
    db: Queryable,
    accountId: string,
    reason: string,
  ): Promise<{ id: string; name: string; workspaceId: string }[]> {
    const r = await db.query<{ id: string; name: string; workspace_id: string }>(
      `with paused as (update sources set status = 'paused', pause_reason = $2, updated_at = now()
         where pixel_account_id = $1 and status = 'active' returning id, name, workspace_id),
       hooked as (${outboxInsert(`select p.workspace_id, 'source.paused',
         jsonb_build_object('sourceId', p.id, 'reason', 'token_refused', 'pixelAccountId', $1::uuid) from paused p`)})
       select id, name, workspace_id from paused`,
      [accountId, reason],
    );
    return r.rows.map((x) => ({ id: x.id, name: x.name, workspaceId: x.workspace_id }));
  },
  /** The first request since the last claim wins, with its person. */
  async requestRun(
    db: Queryable,
    workspaceId: string,
    id: string,
    now: Date,
    userId: string | null,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await db.query(
      `update sources set run_requested_by = case when run_requested_at is null then $4::uuid else run_requested_by end,
         run_requested_at = coalesce(run_requested_at, $3) where id = $1 and workspace_id = $2`,
      [id, workspaceId, now, userId],
    );
    return r.rowCount > 0;
  },

  /**
   * The scheduler's claim: due active sources (or ones the owner asked to run now) without a running run, each
   * locked so concurrent workers skip it. In the same transaction the run row is created and the next due
   * time moved on, so a crash either keeps both or neither.
   */
  /**
   * Claims take turns (a transaction-scoped advisory lock): the per-account bound counts running runs, and two
   * claims in the same instant would each miss the other's uncommitted run and both take the account's turn
   * (issue 30's bench: four workers' loops took one account's four hanging sources at once). A claim is two short
   * statements, so the turns cost nothing measurable.
   */
  async lockClaims(db: Queryable): Promise<void> {
    await db.query('select pg_advisory_xact_lock($1)', [CLAIM_LOCK_ID]);
  },
  async claimDue(
    db: Queryable,
    now: Date,
    limit: number,
  ): Promise<(SourceRow & { trigger: 'schedule' | 'manual'; dueAt: Date | null })[]> {
    const r = await db.query(
      `select ${COLS} from sources s
       where ((s.status = 'active' and s.next_run_at <= $1) or s.run_requested_at is not null)
         and not exists (select 1 from source_runs r where r.source_id = s.id and r.status = 'running')
         and (select count(*) from source_runs r where r.workspace_id = s.workspace_id and r.status = 'running') < $3
       order by coalesce(s.run_requested_at, s.next_run_at) limit $2
       for update of s skip locked`,
      [now, limit, RUNS_PER_ACCOUNT],
    );
    return r.rows.map((row) => {
      const s = toSource(row);
      const manual = s.runRequestedAt !== null;
      return {
        ...s,
        trigger: manual ? 'manual' : 'schedule',
        dueAt: manual ? s.runRequestedAt : s.nextRunAt,
      };
    });
  },
  async advance(db: Queryable, id: string, nextRunAt: Date | null, clearRequest: boolean) {
    await db.query(
      `update sources set next_run_at = coalesce($2, next_run_at),
         run_requested_at = case when $3 then null else run_requested_at end,
         run_requested_by = case when $3 then null else run_requested_by end where id = $1`,
      [id, nextRunAt, clearRequest],
    );
  },

  async createRun(
    db: Queryable,
    run: {
      id: string;
      sourceId: string;
      workspaceId: string;
      trigger: 'schedule' | 'manual';
      dueAt: Date | null;
      now: Date;
    },
  ) {
    await db.query(
      `insert into source_runs (id, source_id, workspace_id, trigger, due_at, started_at, heartbeat_at)
       values ($1, $2, $3, $4, $5, $6, $6)`,
      [run.id, run.sourceId, run.workspaceId, run.trigger, run.dueAt, run.now],
    );
  },
  async heartbeat(db: Queryable, runId: string) {
    await db.query('update source_runs set heartbeat_at = now() where id = $1', [runId]);
  },
  async setRunUpload(db: Queryable, runId: string, uploadId: string, rowsRead: number) {
    await db.query('update source_runs set upload_id = $2, rows_read = $3 where id = $1', [
      runId,
      uploadId,
      rowsRead,
    ]);
  },
  async setRunItem(db: Queryable, runId: string, item: { key: string; name: string }) {
    await db.query('update source_runs set item_key = $2, item_name = $3 where id = $1', [
      runId,
      item.key,
      item.name,
    ]);
  },
  /** The keys among these that the source already processed (SFTP files, S3 objects). */
  /**
   * Which of the listed items this source already processed. Those still listed are marked seen now (at most once a
   * day each), so retention forgets only items gone from the server for RETENTION_DAYS: forgetting one still there
   * would import an old file again.
   */
  async seenKeys(db: Queryable, sourceId: string, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const listed = JSON.stringify(keys);
    await db.query(
      `update source_seen set seen_at = now()
       where source_id = $1 and item_key in (select jsonb_array_elements_text($2::jsonb))
         and seen_at < now() - interval '1 day'`,
      [sourceId, listed],
    );
    const r = await db.query<{ item_key: string }>(
      `select item_key from source_seen
       where source_id = $1 and item_key in (select jsonb_array_elements_text($2::jsonb))`,
      [sourceId, listed],
    );
    return new Set(r.rows.map((x) => x.item_key));
  },
  /** How many finished runs of this source failed on this item (the file that cannot be read). */
  async failedRunsOf(db: Queryable, sourceId: string, key: string): Promise<number> {
    const r = await db.query<{ n: number }>(
      `select count(*)::int as n from source_runs where source_id = $1 and item_key = $2 and status = 'failed'`,
      [sourceId, key],
    );
    return r.rows[0]!.n;
  },
  async markSeen(db: Queryable, sourceId: string, key: string) {
    await db.query('insert into source_seen (source_id, item_key) values ($1, $2) on conflict do nothing', [
      sourceId,
      key,
    ]);
  },
  /** A backlog of files: the next tick runs the source again at once (whatever its schedule). */
  async requestNextRun(db: Queryable, id: string, now: Date) {
    await db.query('update sources set run_requested_at = coalesce(run_requested_at, $2) where id = $1', [
      id,
      now,
    ]);
  },
  /** A changed SFTP server: the host key trusted on first use. */
  async setHostKey(db: Queryable, id: string, hostKey: string) {
    await db.query(
      `update sources set connection = jsonb_set(connection, '{hostKey}', to_jsonb($2::text)) where id = $1`,
      [id, hostKey],
    );
  },
  /** A send started by an earlier run of this source is still going (resumed after that run's worker died). */
  async sendInProgress(db: Queryable, sourceId: string): Promise<boolean> {
    const r = await db.query<{ busy: boolean }>(
      `select exists (select 1 from source_runs sr join send_runs r on r.id = sr.send_run_id
         where sr.source_id = $1 and r.status = 'running') as busy`,
      [sourceId],
    );
    return r.rows[0]!.busy;
  },
  async setRunSend(db: Queryable, runId: string, sendRunId: string) {
    await db.query('update source_runs set send_run_id = $2 where id = $1', [runId, sendRunId]);
  },
  async finishRun(
    db: Queryable,
    runId: string,
    f: { status: SourceRunStatus; message: string | null; rowsSkipped?: number; skippedRows?: object[] },
  ) {
    await db.query(
      `with ended as (update source_runs set status = $2, message = $3, rows_skipped = coalesce($4, rows_skipped),
         skipped_rows = coalesce($5, skipped_rows), finished_at = now() where id = $1 and status = 'running'
         returning *),
       hooked as (${RUN_ENDED_WEBHOOK})${insightsCounters.sourceRunsEndedCte()}
       select 1`,
      [
        runId,
        f.status,
        f.message,
        f.rowsSkipped ?? null,
        f.skippedRows ? JSON.stringify(f.skippedRows) : null,
      ],
    );
  },
  /** Runs whose worker stopped beating (crashed): closed as failed so the source can run again. */
  async failStaleRuns(db: Queryable, quietMs: number, message: string): Promise<number> {
    const r = await db.query<{ n: number }>(
      `with ended as (update source_runs set status = 'failed', message = $2, finished_at = now()
       where status = 'running' and heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
       returning *),
       hooked as (${RUN_ENDED_WEBHOOK})${insightsCounters.sourceRunsEndedCte()}
       select count(*)::int as n from ended`,
      [quietMs, message],
    );
    return r.rows[0]!.n;
  },
  async getRun(db: Queryable, runId: string): Promise<SourceRunRow | undefined> {
    const r = await db.query(`select ${RUN_COLS} from ${RUN_FROM} where r.id = $1`, [runId]);
    return r.rows[0] ? toRun(r.rows[0]) : undefined;
  },
  /** A run that sent nothing: its upload goes, its count of events already delivered stays with the run. */
  async dropUpload(db: Queryable, runId: string, uploadId: string, alreadyDelivered: number) {
    await db.query('update source_runs set already_delivered = $2 where id = $1', [runId, alreadyDelivered]);
    await db.query('delete from uploads where id = $1', [uploadId]);
  },
  /** The hashes among these that an earlier run of the source let through as rows with errors. */
  async knownBadRows(db: Queryable, sourceId: string, hashes: string[]): Promise<Set<string>> {
    if (!hashes.length) return new Set();
    const r = await db.query<{ row_hash: string }>(
      `select row_hash from source_bad_rows
       where source_id = $1 and row_hash in (select jsonb_array_elements_text($2::jsonb))`,
      [sourceId, JSON.stringify(hashes)],
    );
    return new Set(r.rows.map((x) => x.row_hash));
  },
  /** A run passed the threshold: its rows with errors are no longer new to the source. */
  async rememberBadRows(db: Queryable, sourceId: string, hashes: string[], now: Date) {
    if (hashes.length)
      await db.query(
        `insert into source_bad_rows (source_id, row_hash)
         select $1, h from jsonb_array_elements_text($2::jsonb) h on conflict do nothing`,
        [sourceId, JSON.stringify(hashes)],
      );
    await db.query('update sources set bad_rows_known_at = coalesce(bad_rows_known_at, $2) where id = $1', [
      sourceId,
      now,
    ]);
  },
  /** How many uploads each of the user's sources made that still exist. */
  async uploadCounts(db: Queryable, workspaceId: string): Promise<Map<string, number>> {
    const r = await db.query<{ source_id: string; n: number }>(
      `select r.source_id, count(distinct r.upload_id)::int as n from source_runs r join uploads u on u.id = r.upload_id
       where r.workspace_id = $1 and u.complete group by r.source_id`,
      [workspaceId],
    );
    return new Map(r.rows.map((x) => [x.source_id, x.n]));
  },
  /** Deletes the uploads the source's runs made (the owner asked to, with the source); answers how many. */
  async deleteUploads(db: Queryable, workspaceId: string, sourceId: string): Promise<number> {
    const r = await db.query(
      `delete from uploads where workspace_id = $1
         and id in (select upload_id from source_runs where source_id = $2 and upload_id is not null)`,
      [workspaceId, sourceId],
    );
    return r.rowCount;
  },
  async runs(db: Queryable, sourceId: string, limit: number): Promise<SourceRunRow[]> {
    const r = await db.query(
      `select ${RUN_COLS} from ${RUN_FROM} where r.source_id = $1 order by r.started_at desc, r.id limit $2`,
      [sourceId, limit],
    );
    return r.rows.map(toRun);
  },
  async lastRuns(db: Queryable, workspaceId: string): Promise<Map<string, SourceRunRow>> {
    const r = await db.query(
      `select distinct on (r.source_id) ${RUN_COLS} from ${RUN_FROM}
       where r.workspace_id = $1 order by r.source_id, r.started_at desc, r.id`,
      [workspaceId],
    );
    return new Map(r.rows.map((x) => [x.source_id as string, toRun(x)]));
  },
};
