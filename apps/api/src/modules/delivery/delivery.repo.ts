import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../db/db.ts';

export type RunStatus = 'running' | 'completed' | 'completed_with_errors' | 'stopped';
export type StopReason = 'token' | 'permission' | 'pixel' | 'internal';
export type BatchStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'split';

export interface RunRow {
  id: string;
  user_id: string;
  upload_id: string;
  pixel_account_id: string | null;
  pixel_id: string;
  account_name: string;
  test_event_code: string | null;
  skip_delivered: boolean;
  status: RunStatus;
  stop_reason: StopReason | null;
  stop_error: string | null;
  planned: boolean;
  total_events: number | null;
  skipped_events: number;
  /** Skipped events counted ahead of the plan (see precountSkipped); the plan's count replaces it. */
  skipped_counted: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date | null;
  /** Run-level "not before" set by a rate-limit answer: no worker claims or sends a batch of the run until then. */
  throttled_until: Date | null;
  /** When the current streak of rate limits began; cleared by a batch Meta accepts. */
  throttled_since: Date | null;
  throttle_count: number;
  /** The stopped run this one retries (it sends only what the ledger lacks); null for a send from /submit. */
  retry_of: string | null;
  /** The "now" its file is read at (a retry reads as the first run did); null = created_at. See readTime. */
  read_at: Date | null;
}

/** The clock a run's file is read with: the same for every worker and every retry, so the same events come out. */
export const readTime = (run: Pick<RunRow, 'read_at' | 'created_at'>): Date => run.read_at ?? run.created_at;

export interface BatchRow {
  id: string;
  run_id: string;
  user_id: string;
  idx: number;
  part: string;
  row_numbers: number[];
  first_row: number;
  last_row: number;
  event_count: number;
  status: BatchStatus;
  attempts: number;
  events_received: number | null;
  fbtrace_id: string | null;
  verdict: string | null;
  error_code: number | null;
  error_subcode: number | null;
  error_title: string | null;
  error_message: string | null;
  error_raw: string | null;
  payload_hash: string;
  /** Failed as a whole batch after both its halves were refused like it (see failWhole): final, never split. */
  failed_whole: boolean;
}

export interface BatchError {
  verdict: string;
  code: number | null;
  subcode: number | null;
  title: string | null;
  message: string | null;
  raw: string | null;
}

export interface FailureGroupRow {
  verdict: string | null;
  error_code: number | null;
  error_subcode: number | null;
  error_title: string | null;
  error_message: string | null;
  error_raw: string | null;
  batches: number;
  events: number;
  sample_rows: number[];
}

export interface RunTotals {
  batches_sent: number;
  batches_failed: number;
  batches_open: number;
  events_sent: number;
  events_failed: number;
  events_open: number;
  events_batched: number;
}

/**
 * A second half ('…1') waits until its first half ('…0') has an outcome: whether both halves fail the same way
 * as their parent decides if the parent is failed whole or split further (see the engine's isolate).
 */
const SIBLING_SETTLED = `not (b.part like '%1' and exists (select 1 from send_batches s where s.run_id = b.run_id
  and s.idx = b.idx and s.part = left(b.part, -1) || '0' and s.status in ('pending', 'sending')))`;

/**
 * `f` is a first half ('…0') held as failed like its parent, naming no row (see the engine's wholeBatchRejection):
 * not an outcome yet. Once its second half settles it is split, unless it was failed whole.
 */
const HELD_FIRST_HALF = `f.status = 'failed' and f.verdict = 'bad_rows' and f.part like '%0' and f.event_count > 1
  and not f.failed_whole
  and exists (select 1 from send_batches p where p.run_id = f.run_id and p.idx = f.idx and p.part = left(f.part, -1)
    and p.status = 'split' and p.error_code is not distinct from f.error_code
    and p.error_subcode is not distinct from f.error_subcode)`;

/** The second half of `f` has an outcome: `f` must be split now (see heldFirstHalves). */
const SECOND_HALF_SETTLED = `exists (select 1 from send_batches s where s.run_id = f.run_id and s.idx = f.idx
  and s.part = left(f.part, -1) || '1' and s.status in ('sent', 'failed', 'split'))`;

/**
 * A sent batch's 1,000 row numbers and 2,000 ledger texts go as one literal each: the driver's array writer
 * escapes element by element (with the row numbers read back and parsed again by `returning *`, ~1 ms of the
 * event loop a batch).
 */
const intArray = (ns: readonly number[]) => `{${ns.join(',')}}`;
/** A batch row without its row numbers, which the worker recording it already has. */
const BATCH_BUT_ROWS = `id, run_id, user_id, idx, part, first_row, last_row, event_count, status, attempts,
  lease_token, lease_until, events_received, fbtrace_id, verdict, error_code, error_subcode, error_title,
  error_message, error_raw, payload_hash, failed_whole, created_at, updated_at`;

const LEASE = `now() + make_interval(secs => $LEASE::double precision / 1000)`;
const lease = (sql: string, n: number) => sql.replaceAll('$LEASE', `$${n}`);

/**
 * One index probe per distinct id on the whole (user, pixel, event_id) key. `event_id = any($3)` let a planner
 * without fresh statistics (a never-analysed ledger, autovacuum off) scan the pixel's whole history through the
 * (user, pixel) prefix and filter row by row: 150 ms a call at 300k rows, growing with the ledger. The lateral
 * subquery with `offset 0` cannot be flattened into a hash join, so each id is a nested-loop index lookup
 * whatever the statistics (docs/decisions/0080-send-path-performance.md).
 */
export const DELIVERED_BEFORE_SQL = `select l.event_name as n, l.event_id as i, l.test as t
  from (select distinct unnest($3::text[]) as id) as q
  cross join lateral (select d.event_name, d.event_id, d.test from delivery_ledger d
    where d.user_id = $1 and d.pixel_id = $2 and d.event_id = q.id
      and ($4::timestamptz is null or d.delivered_at < $4) offset 0) as l`;

export const deliveryRepo = {
  async createRun(
    db: Queryable,
    r: {
      userId: string;
      uploadId: string;
      accountId: string;
      pixelId: string;
      accountName: string;
      testEventCode: string | null;
      skipDelivered: boolean;
      /** The prepared count: progress is honest from the first poll; corrected once the file is planned. */
      expectedEvents?: number | null;
      retryOf?: string | null;
      readAt?: Date | null;
    },
  ): Promise<RunRow> {
    const { rows } = await db.query<RunRow>(
      `insert into send_runs (id, user_id, upload_id, pixel_account_id, pixel_id, account_name, test_event_code,
         skip_delivered, total_events, retry_of, read_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning *`,
      [
        randomUUID(),
        r.userId,
        r.uploadId,
        r.accountId,
        r.pixelId,
        r.accountName,
        r.testEventCode,
        r.skipDelivered,
        r.expectedEvents ?? null,
        r.retryOf ?? null,
        r.readAt ?? null,
      ],
    );
    return rows[0]!;
  },

  /**
   * Locks a run for the transaction that starts its retry: two clicks at once queue here, and the second finds
   * the first one's retry (retryOf).
   */
  async lockRun(db: Queryable, id: string): Promise<RunRow | null> {
    const { rows } = await db.query<RunRow>('select * from send_runs where id = $1 for update', [id]);
    return rows[0] ?? null;
  },

  /** The run that retries `runId`, if one was started. */
  async retryOf(db: Queryable, runId: string): Promise<RunRow | null> {
    const { rows } = await db.query<RunRow>('select * from send_runs where retry_of = $1', [runId]);
    return rows[0] ?? null;
  },

  /** Events Meta accepted in the runs before `runId` on its upload (those a retry leaves out). */
  async sentBefore(db: Queryable, run: Pick<RunRow, 'upload_id' | 'created_at'>): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `select coalesce(sum(b.event_count), 0)::int as n from send_batches b join send_runs r on r.id = b.run_id
       where r.upload_id = $1 and r.created_at < $2 and b.status = 'sent'`,
      [run.upload_id, run.created_at],
    );
    return rows[0]!.n;
  },

  async getRun(db: Queryable, id: string): Promise<RunRow | null> {
    const { rows } = await db.query<RunRow>('select * from send_runs where id = $1', [id]);
    return rows[0] ?? null;
  },

  async latestRunForUpload(db: Queryable, userId: string, uploadId: string): Promise<RunRow | null> {
    const { rows } = await db.query<RunRow>(
      'select * from send_runs where user_id = $1 and upload_id = $2 order by created_at desc limit 1',
      [userId, uploadId],
    );
    return rows[0] ?? null;
  },

  async markStarted(db: Queryable, runId: string): Promise<void> {
    await db.query(
      'update send_runs set started_at = coalesce(started_at, now()), heartbeat_at = now(), updated_at = now() where id = $1',
      [runId],
    );
  },

  /**
   * A worker is still on the run (see staleRunIds). This worker is alive: touches the run and renews the leases of the batches it holds (`token`), so a batch is
   * ours only while we beat and a killed worker's batches are free one lease after its last beat.
   */
  async heartbeat(db: Queryable, runId: string, token: string, leaseMs: number): Promise<void> {
    await db.query(`update send_runs set heartbeat_at = now() where id = $1 and status = 'running'`, [runId]);
    await db.query(
      lease(
        `update send_batches set lease_until = greatest(lease_until, ${LEASE})
         where run_id = $1 and lease_token = $2 and status = 'sending'`,
        3,
      ),
      [runId, token, leaseMs],
    );
  },

  /**
   * Meta refused a request of the run for its rate. A request sent once the hold was over (or before any) opens a
   * new wave: the hold becomes `at` + the wait, which doubles with each wave, is never shorter than Retry-After and
   * at most `maxWaitMs`. A request sent before the hold was set was in flight with the one that set it: its refusal
   * is the same wave and only a longer Retry-After moves the hold. Times are the worker's clock (`sent`, `at`), so
   * the engine's injected clock drives this in tests.
   */
  async noteThrottle(
    db: Queryable,
    runId: string,
    t: { sent: Date; at: Date; retryAfterMs: number; baseMs: number; maxWaitMs: number },
  ): Promise<{ throttled_until: Date; throttled_since: Date }> {
    const { rows } = await db.query<{ throttled_until: Date; throttled_since: Date }>(
      `update send_runs set
         throttle_count = throttle_count + (case when throttled_until > $2 then 0 else 1 end),
         throttled_since = coalesce(throttled_since, $3),
         throttled_until = greatest(throttled_until, $3::timestamptz + make_interval(secs => (case
           when throttled_until > $2 then $4::double precision
           else least($6::double precision,
             greatest($4::double precision, $5::double precision * power(2, least(30, throttle_count)))) end) / 1000))
       where id = $1 returning throttled_until, throttled_since`,
      [runId, t.sent, t.at, t.retryAfterMs, t.baseMs, t.maxWaitMs],
    );
    return rows[0]!;
  },

  /** Meta accepted a batch: the streak of rate limits is over (the next one starts from the shortest wait). */
  async clearThrottle(db: Queryable, runId: string): Promise<void> {
    await db.query(
      'update send_runs set throttled_since = null, throttle_count = 0 where id = $1 and throttled_since is not null',
      [runId],
    );
  },

  /** Running runs nobody is working on: no heartbeat and no batch activity for longer than `quietMs`. */
  async staleRunIds(db: Queryable, quietMs: number): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `select r.id from send_runs r
       where r.status = 'running'
         and coalesce(r.heartbeat_at, r.created_at) < now() - make_interval(secs => $1::double precision / 1000)
         and not exists (select 1 from send_batches b where b.run_id = r.id
           and b.updated_at >= now() - make_interval(secs => $1::double precision / 1000))
       order by r.created_at`,
      [quietMs],
    );
    return rows.map((r) => r.id);
  },

  /** Idempotent: every worker that reads the whole file arrives at the same numbers. */
  async finishPlan(db: Queryable, runId: string, totalEvents: number, skipped: number): Promise<void> {
    await db.query(
      'update send_runs set planned = true, total_events = $2, skipped_events = $3, updated_at = now() where id = $1',
      [runId, totalEvents, skipped],
    );
  },

  /** A count made ahead of the plan; never over a planned run's numbers. */
  async noteSkippedCount(db: Queryable, runId: string, totalEvents: number, skipped: number): Promise<void> {
    await db.query(
      `update send_runs set total_events = $2, skipped_events = $3, skipped_counted = true, updated_at = now()
       where id = $1 and not planned and status = 'running'`,
      [runId, totalEvents, skipped],
    );
  },

  async stopRun(db: Queryable, runId: string, reason: StopReason, error: string | null): Promise<void> {
    await db.query(
      `update send_runs set status = 'stopped', stop_reason = $2, stop_error = $3, finished_at = now(), updated_at = now()
       where id = $1 and status = 'running'`,
      [runId, reason, error],
    );
  },

  /**
   * Closes a fully planned run with no open batch left; answers the final status (or null if still open). A held
   * first half counts as open: it fails only the bad rows once split, and a worker that died between its second
   * half's outcome and the split would otherwise leave all its rows failed.
   */
  async tryFinish(db: Queryable, runId: string): Promise<RunStatus | null> {
    const { rows } = await db.query<{ status: RunStatus }>(
      `update send_runs r set
         status = case when exists (select 1 from send_batches b where b.run_id = r.id and b.status = 'failed')
                       then 'completed_with_errors' else 'completed' end,
         finished_at = now(), updated_at = now()
       where r.id = $1 and r.status = 'running' and r.planned
         and not exists (select 1 from send_batches b where b.run_id = r.id and b.status in ('pending', 'sending'))
         and not exists (select 1 from send_batches f where f.run_id = r.id and ${HELD_FIRST_HALF})
       returning r.status`,
      [runId],
    );
    return rows[0]?.status ?? null;
  },

  /**
   * Records batch `idx` unless a worker already did; answers the stored payload hash either way. A batch recorded
   * here is already claimed by `token` (`claimed`) with its first attempt counted: neither the first claim nor the
   * first attempt costs a query of its own (the sender knows not to count it again).
   */
  async ensureBatch(
    db: Queryable,
    b: {
      runId: string;
      userId: string;
      idx: number;
      rowNumbers: number[];
      payloadHash: string;
      token: string;
      leaseMs: number;
    },
  ): Promise<{ payloadHash: string; claimed: BatchRow | null }> {
    const inserted = await db.query<Omit<BatchRow, 'row_numbers'>>(
      lease(
        `insert into send_batches (id, run_id, user_id, idx, part, row_numbers, first_row, last_row, event_count,
           payload_hash, status, lease_token, lease_until, attempts)
         values ($1, $2, $3, $4, '', $5::int[], $6, $7, $8, $9, 'sending', $10, ${LEASE}, 1)
         on conflict (run_id, idx, part) do nothing returning ${BATCH_BUT_ROWS}`,
        11,
      ),
      [
        randomUUID(),
        b.runId,
        b.userId,
        b.idx,
        intArray(b.rowNumbers),
        b.rowNumbers[0],
        b.rowNumbers.at(-1),
        b.rowNumbers.length,
        b.payloadHash,
        b.token,
        b.leaseMs,
      ],
    );
    const row = inserted.rows[0];
    if (row) return { payloadHash: row.payload_hash, claimed: { ...row, row_numbers: b.rowNumbers } };
    const { rows } = await db.query<{ payload_hash: string }>(
      `select payload_hash from send_batches where run_id = $1 and idx = $2 and part = ''`,
      [b.runId, b.idx],
    );
    return { payloadHash: rows[0]!.payload_hash, claimed: null };
  },

  /**
   * Takes one open leaf of batch `idx` (pending, or sending with an expired lease). SKIP LOCKED lets
   * several workers race for the same batch: exactly one wins, the others see nothing and move on.
   */
  async claim(
    db: Queryable,
    runId: string,
    idx: number,
    token: string,
    leaseMs: number,
  ): Promise<BatchRow | null> {
    const { rows } = await db.query<BatchRow>(
      lease(
        `update send_batches set status = 'sending', lease_token = $3, lease_until = ${LEASE}, updated_at = now()
       where id = (
         select id from send_batches b
         where run_id = $1 and idx = $2
           and (status = 'pending' or (status = 'sending' and lease_until < now())) and ${SIBLING_SETTLED}
         order by part limit 1 for update skip locked)
       returning *`,
        4,
      ),
      [runId, idx, token, leaseMs],
    );
    return rows[0] ?? null;
  },

  /** Counts an attempt and extends the lease; false when the lease was lost (another worker took over). */
  async beginAttempt(db: Queryable, batchId: string, token: string, leaseMs: number): Promise<boolean> {
    const r = await db.query(
      lease(
        `update send_batches set attempts = attempts + 1, lease_until = ${LEASE}, updated_at = now()
       where id = $1 and lease_token = $2 and status = 'sending'`,
        3,
      ),
      [batchId, token, leaseMs],
    );
    return r.rowCount > 0;
  },

  /** Keeps a batch ours through a wait (the run is throttled); false when the lease was lost. */
  async extendLease(db: Queryable, batchId: string, token: string, leaseMs: number): Promise<boolean> {
    const r = await db.query(
      lease(
        `update send_batches set lease_until = ${LEASE}, updated_at = now()
       where id = $1 and lease_token = $2 and status = 'sending'`,
        3,
      ),
      [batchId, token, leaseMs],
    );
    return r.rowCount > 0;
  },

  /** A rate-limited attempt is the run's problem, not the batch's: it does not count towards its attempts. */
  async refundAttempt(db: Queryable, batchId: string, token: string): Promise<void> {
    await db.query(
      `update send_batches set attempts = attempts - 1
       where id = $1 and lease_token = $2 and status = 'sending' and attempts > 0`,
      [batchId, token],
    );
  },

  async release(db: Queryable, batchId: string, token: string, uncountAttempt = false): Promise<void> {
    await db.query(
      `update send_batches set status = 'pending', lease_token = null, lease_until = null, updated_at = now(),
         attempts = attempts - $3::int
       where id = $1 and lease_token = $2 and status = 'sending'`,
      [batchId, token, uncountAttempt ? 1 : 0],
    );
  },

  /**
   * Meta confirmed the batch: the outcome and the ledger commit together, in one statement (one round trip, not a
   * transaction's four), before anything counts it. The ledger rows are written only if the batch was still ours.
   * A file's duplicate rows share an event_id (Meta deduplicates them), so the ledger rows are made distinct first:
   * ON CONFLICT cannot touch one row twice in a statement.
   */
  async commitSent(
    db: Queryable,
    b: { batchId: string; token: string; eventsReceived: number; fbtraceId: string | null },
    ledger: {
      userId: string;
      pixelId: string;
      runId: string;
      test: boolean;
      events: { name: string; id: string }[];
    },
  ): Promise<boolean> {
    const { rows } = await db.query<{ sent: number }>(
      `with sent as (
         update send_batches set status = 'sent', events_received = $9, fbtrace_id = $10, lease_token = null,
           lease_until = null, updated_at = now()
         where id = $7 and lease_token = $8 and status = 'sending' returning id),
       ledger as (
         insert into delivery_ledger (user_id, pixel_id, event_name, event_id, test, run_id)
         select $1, $2, n, i, $3, $4 from (select distinct n, i
           from rows from (json_array_elements_text($5::json), json_array_elements_text($6::json)) as t(n, i)) as d
         where exists (select 1 from sent)
         on conflict (user_id, pixel_id, event_id, event_name) do update
           set test = false, run_id = excluded.run_id, delivered_at = now()
           where delivery_ledger.test and not excluded.test)
       select count(*)::int as sent from sent`,
      [
        ledger.userId,
        ledger.pixelId,
        ledger.test,
        ledger.runId,
        JSON.stringify(ledger.events.map((e) => e.name)),
        JSON.stringify(ledger.events.map((e) => e.id)),
        b.batchId,
        b.token,
        b.eventsReceived,
        b.fbtraceId,
      ],
    );
    return rows[0]!.sent > 0;
  },

  async commitFailed(db: Queryable, batchId: string, token: string, e: BatchError): Promise<boolean> {
    const r = await db.query(
      `update send_batches set status = 'failed', verdict = $3, error_code = $4, error_subcode = $5, error_title = $6,
         error_message = $7, error_raw = $8, lease_token = null, lease_until = null, updated_at = now()
       where id = $1 and lease_token = $2 and status = 'sending'`,
      [batchId, token, e.verdict, e.code, e.subcode, e.title, e.message, e.raw],
    );
    return r.rowCount > 0;
  },

  /** Replaces a rejected leaf by its children; a child may be born failed (the row Meta named). */
  async split(
    db: Db,
    parent: BatchRow,
    token: string | null,
    children: { part: string; rowNumbers: number[]; payloadHash: string; failed?: BatchError }[],
    parentError: BatchError | null = null,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      // Ours under lease, or (token null) a failed half whose sibling just showed the parent was not failed whole;
      // never a batch that was itself failed whole (a worker that lost its lease may still try to resolve it).
      const r = await tx.query(
        `update send_batches set status = 'split', lease_token = null, lease_until = null, updated_at = now(),
           verdict = coalesce($3, verdict), error_code = case when $3::text is null then error_code else $4 end,
           error_subcode = case when $3::text is null then error_subcode else $5 end,
           error_title = case when $3::text is null then error_title else $6 end,
           error_message = case when $3::text is null then error_message else $7 end,
           error_raw = case when $3::text is null then error_raw else $8 end
         where id = $1 and (case when $2::uuid is null then status = 'failed' and not failed_whole
           else lease_token = $2 and status = 'sending' end)`,
        [
          parent.id,
          token,
          parentError?.verdict ?? null,
          parentError?.code ?? null,
          parentError?.subcode ?? null,
          parentError?.title ?? null,
          parentError?.message ?? null,
          parentError?.raw ?? null,
        ],
      );
      if (r.rowCount === 0) return false;
      for (const c of children) {
        const f = c.failed;
        await tx.query(
          `insert into send_batches (id, run_id, user_id, idx, part, row_numbers, first_row, last_row, event_count, payload_hash,
             status, verdict, error_code, error_subcode, error_title, error_message, error_raw)
           values ($1, $2, $3, $4, $5, $6::int[], $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [
            randomUUID(),
            parent.run_id,
            parent.user_id,
            parent.idx,
            c.part,
            c.rowNumbers,
            c.rowNumbers[0],
            c.rowNumbers.at(-1),
            c.rowNumbers.length,
            c.payloadHash,
            f ? 'failed' : 'pending',
            f?.verdict ?? null,
            f?.code ?? null,
            f?.subcode ?? null,
            f?.title ?? null,
            f?.message ?? null,
            f?.raw ?? null,
          ],
        );
      }
      return true;
    });
  },

  /**
   * First halves still held as failed like their parent although their second half has settled (a worker died
   * between the two): they must be split, not left failed whole. A first half that was failed whole (its own
   * halves both refused like it) is final and not among them.
   */
  async heldFirstHalves(db: Queryable, runId: string): Promise<BatchRow[]> {
    const { rows } = await db.query<BatchRow>(
      `select f.* from send_batches f where f.run_id = $1 and ${HELD_FIRST_HALF} and ${SECOND_HALF_SETTLED}`,
      [runId],
    );
    return rows;
  },

  /**
   * The error that failed every event of a batch one by one (it was split, nothing of it was sent or is still
   * open, and all its leaves failed as bad rows with one code and subcode); null otherwise.
   */
  async rejectedRowByRow(
    db: Queryable,
    runId: string,
    idx: number,
  ): Promise<{ code: number | null; subcode: number | null } | null> {
    const { rows } = await db.query<{ whole: boolean; code: number | null; subcode: number | null }>(
      `select count(*) > 1 and bool_and(status = 'failed' and verdict = 'bad_rows')
           and count(distinct (coalesce(error_code, -1), coalesce(error_subcode, -1))) = 1 as whole,
         min(error_code) as code, min(error_subcode) as subcode
       from send_batches where run_id = $1 and idx = $2 and status <> 'split'`,
      [runId, idx],
    );
    const r = rows[0];
    return r?.whole ? { code: r.code, subcode: r.subcode } : null;
  },

  async findPart(db: Queryable, runId: string, idx: number, part: string): Promise<BatchRow | null> {
    const { rows } = await db.query<BatchRow>(
      'select * from send_batches where run_id = $1 and idx = $2 and part = $3',
      [runId, idx, part],
    );
    return rows[0] ?? null;
  },

  /**
   * Both halves of a split failed the way their parent did: the rejection was about the whole batch, not one
   * row. The parent (which kept its error) becomes the failed leaf again, marked failed whole, and the halves go
   * away.
   */
  async failWhole(db: Db, parent: BatchRow, leaf: BatchRow, token: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const r = await tx.query(
        `delete from send_batches where id = $1 and lease_token = $2 and status = 'sending'`,
        [leaf.id, token],
      );
      if (r.rowCount === 0) return false;
      await tx.query(
        `delete from send_batches where run_id = $1 and idx = $2 and part = $3 and status = 'failed'`,
        [parent.run_id, parent.idx, parent.part + '0'],
      );
      await tx.query(
        `update send_batches set status = 'failed', failed_whole = true, updated_at = now()
         where id = $1 and status = 'split'`,
        [parent.id],
      );
      return true;
    });
  },

  /**
   * Whether a worker has something to do on the run right now: a batch to take (pending, or a lease that ran out)
   * or a held first half to split (its second half settled, and whoever sent that did not split it).
   */
  async hasWork(db: Queryable, runId: string): Promise<boolean> {
    const { rows } = await db.query<{ ok: boolean }>(
      `select exists (select 1 from send_batches b where run_id = $1
           and (status = 'pending' or (status = 'sending' and lease_until < now())) and ${SIBLING_SETTLED})
         or exists (select 1 from send_batches f where f.run_id = $1 and ${HELD_FIRST_HALF} and ${SECOND_HALF_SETTLED})
         as ok`,
      [runId],
    );
    return rows[0]!.ok;
  },

  /**
   * Counts from committed leaves. A held first half (failed like its parent until its sibling settles) counts as
   * still open, not failed: it is split or failed whole moments later, and a counter that showed its events as
   * failed would then go back down.
   */
  async totals(db: Queryable, runId: string): Promise<RunTotals> {
    const { rows } = await db.query<RunTotals>(
      `with l as (
         select f.status, f.event_count, f.part, (${HELD_FIRST_HALF}) as held from send_batches f where f.run_id = $1
       )
       select
         count(*) filter (where status = 'sent')::int as batches_sent,
         count(*) filter (where status = 'failed' and not held)::int as batches_failed,
         count(*) filter (where status in ('pending', 'sending') or held)::int as batches_open,
         coalesce(sum(event_count) filter (where status = 'sent'), 0)::int as events_sent,
         coalesce(sum(event_count) filter (where status = 'failed' and not held), 0)::int as events_failed,
         coalesce(sum(event_count) filter (where status in ('pending', 'sending') or held), 0)::int as events_open,
         coalesce(sum(event_count) filter (where part = ''), 0)::int as events_batched
       from l`,
      [runId],
    );
    return rows[0]!;
  },

  /** Failed events grouped by Meta's reason, largest group first, with the first few row numbers of each. */
  async failureGroups(db: Queryable, runId: string, samples = 5): Promise<FailureGroupRow[]> {
    const { rows } = await db.query<FailureGroupRow>(
      `select f.verdict, f.error_code, f.error_subcode, f.error_title, f.error_message, min(f.error_raw) as error_raw,
         count(distinct f.id)::int as batches, count(*)::int as events,
         (array_agg(rn order by rn))[1:$2] as sample_rows
       from send_batches f cross join lateral unnest(f.row_numbers) as rn
       where f.run_id = $1 and f.status = 'failed' and not (${HELD_FIRST_HALF})
       group by f.verdict, f.error_code, f.error_subcode, f.error_title, f.error_message
       order by events desc, min(rn)`,
      [runId, samples],
    );
    return rows;
  },

  /** Every failed leaf of the run (held first halves are not failed yet): the all-failed-rows download. */
  async failedLeaves(db: Queryable, runId: string): Promise<BatchRow[]> {
    const { rows } = await db.query<BatchRow>(
      `select f.* from send_batches f where f.run_id = $1 and f.status = 'failed' and not (${HELD_FIRST_HALF})`,
      [runId],
    );
    return rows;
  },

  /** One page of the run's leaves in file order, filtered by outcome, with how many match the filter. */
  async batchesPage(
    db: Queryable,
    runId: string,
    q: { status: 'all' | 'failed' | 'sent' | 'open'; offset: number; limit: number },
  ): Promise<{ rows: (BatchRow & { position: number; held: boolean })[]; total: number }> {
    const leaves = `select * from (
         select f.*, (${HELD_FIRST_HALF}) as held,
           (row_number() over (order by f.idx, f.first_row, f.part) - 1)::int as position
         from send_batches f where f.run_id = $1 and f.status <> 'split'
       ) l
       where case $2::text when 'failed' then status = 'failed' and not held
         when 'sent' then status = 'sent' when 'open' then status in ('pending', 'sending') or held else true end`;
    const { rows } = await db.query<BatchRow & { position: number; held: boolean }>(
      `${leaves} order by position limit $3 offset $4`,
      [runId, q.status, q.limit, q.offset],
    );
    const { rows: n } = await db.query<{ n: number }>(`select count(*)::int as n from (${leaves}) c`, [
      runId,
      q.status,
    ]);
    return { rows, total: n[0]!.n };
  },

  /**
   * Per upload, its latest run's status, events failed and skipped (counted as in totals) and pixel, with the
   * events sent by every run of the upload: a retry sends only what the runs before it did not.
   */
  async latestOutcomes(db: Queryable, userId: string, uploadIds: string[]): Promise<OutcomeRow[]> {
    if (!uploadIds.length) return [];
    const { rows } = await db.query<OutcomeRow>(
      `select r.upload_id, r.status, r.account_name, r.pixel_id,
         coalesce((select sum(f.event_count) from send_batches f join send_runs a on a.id = f.run_id
           where a.upload_id = r.upload_id and f.status = 'sent'), 0)::int as sent,
         coalesce((select sum(f.event_count) from send_batches f where f.run_id = r.id and f.status = 'failed'
           and not (${HELD_FIRST_HALF})), 0)::int as failed,
         case when r.planned or r.skipped_counted then r.skipped_events end as skipped
       from (select distinct on (upload_id) * from send_runs where user_id = $1 and upload_id = any($2::uuid[])
         order by upload_id, created_at desc) r`,
      [userId, uploadIds],
    );
    return rows;
  },

  /**
   * The account of the user's latest finished send of a file like this one (the same columns, so the same export
   * or template, or the same source), if that account is still good: not waiting for a new token, and neither
   * its last send since nor its last connection test failed. Null otherwise: the send step then preselects none.
   */
  async lastGoodAccount(db: Queryable, userId: string, uploadId: string): Promise<string | null> {
    const { rows } = await db.query<{ id: string }>(
      `select p.id from send_runs r
         join uploads u on u.id = r.upload_id
         join uploads me on me.id = $2 and me.user_id = $1
         join pixel_accounts p on p.id = r.pixel_account_id and p.user_id = $1
         cross join lateral (select s.status, s.finished_at from send_runs s
           where s.pixel_account_id = p.id and s.status <> 'running'
           order by s.finished_at desc nulls last limit 1) last
       where r.user_id = $1 and r.status in ('completed', 'completed_with_errors') and r.upload_id <> $2
         and (u.headers = me.headers or exists (select 1 from source_runs a join source_runs b on b.source_id = a.source_id
           where a.upload_id = r.upload_id and b.upload_id = $2))
         and p.status = 'active'
         and case when p.last_test_at is not null and (last.finished_at is null or p.last_test_at > last.finished_at)
           then p.last_test_ok else last.status <> 'stopped' end
       order by r.created_at desc limit 1`,
      [userId, uploadId],
    );
    return rows[0]?.id ?? null;
  },

  /** Whether the pixel received any live event of this user before `before`: if not, a run skips nothing. */
  async anyLiveDelivery(db: Queryable, userId: string, pixelId: string, before: Date): Promise<boolean> {
    const { rows } = await db.query<{ ok: boolean }>(
      `select exists (select 1 from delivery_ledger where user_id = $1 and pixel_id = $2 and not test
         and delivered_at < $3) as ok`,
      [userId, pixelId, before],
    );
    return rows[0]!.ok;
  },

  /** Leaves in file order: what the summary lists. */
  async leaves(db: Queryable, runId: string): Promise<BatchRow[]> {
    const { rows } = await db.query<BatchRow>(
      `select * from send_batches where run_id = $1 and status <> 'split' order by idx, first_row, part`,
      [runId],
    );
    return rows;
  },

  /**
   * One page of leaves with their position in file order (the batch number the summary shows): failed first,
   * then file order. Bounded whatever the run's size.
   */
  async leavesPage(
    db: Queryable,
    runId: string,
    q: { onlyFailed: boolean; offset: number; limit: number },
  ): Promise<(BatchRow & { position: number; held: boolean })[]> {
    const { rows } = await db.query<BatchRow & { position: number; held: boolean }>(
      `select * from (
           select f.*, (${HELD_FIRST_HALF}) as held,
           (row_number() over (order by f.idx, f.first_row, f.part) - 1)::int as position
         from send_batches f where f.run_id = $1 and f.status <> 'split'
       ) l
       where not $2::boolean or (status = 'failed' and not held)
       order by status <> 'failed' or held, position
       limit $3 offset $4`,
      [runId, q.onlyFailed, q.limit, q.offset],
    );
    return rows;
  },

  /** A leaf's position among the run's leaves in file order. */
  async leafPosition(db: Queryable, batch: BatchRow): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from send_batches
       where run_id = $1 and status <> 'split' and (idx, first_row, part) < ($2, $3, $4)`,
      [batch.run_id, batch.idx, batch.first_row, batch.part],
    );
    return rows[0]!.n;
  },

  async findBatchForUser(
    db: Queryable,
    userId: string,
    uploadId: string,
    batchId: string,
  ): Promise<BatchRow | null> {
    const { rows } = await db.query<BatchRow>(
      `select b.* from send_batches b join send_runs r on r.id = b.run_id
       where b.id = $1 and b.user_id = $2 and r.upload_id = $3`,
      [batchId, userId, uploadId],
    );
    return rows[0] ?? null;
  },

  /**
   * Event ids (with names) from `ids` delivered live to the pixel before `before` (what a run skips), and
   * those delivered only as test events (never skipped: Meta's test tool is not the live dataset's record).
   * A later live delivery turns a test entry live, dated then, so a run created earlier keeps seeing it as test.
   */
  async deliveredBefore(
    db: Queryable,
    userId: string,
    pixelId: string,
    ids: string[],
    before: Date | null,
  ): Promise<{ live: Set<string>; test: Set<string> }> {
    const live = new Set<string>();
    const test = new Set<string>();
    if (!ids.length) return { live, test };
    const { rows } = await db.query<{ n: string; i: string; t: boolean }>(DELIVERED_BEFORE_SQL, [
      userId,
      pixelId,
      ids,
      before,
    ]);
    for (const r of rows) (r.t ? test : live).add(ledgerKey(r.n, r.i));
    return { live, test };
  },
};

export interface OutcomeRow {
  upload_id: string;
  status: RunStatus;
  account_name: string;
  pixel_id: string;
  sent: number;
  failed: number;
  /** Left out as already delivered; null until counted. */
  skipped: number | null;
}

export const ledgerKey = (name: string, id: string) => `${name}\u0000${id}`;
