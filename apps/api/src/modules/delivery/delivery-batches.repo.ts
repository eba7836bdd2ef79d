import { randomUUID } from 'node:crypto';
import { FIX_GROUPS } from '@backsignal/core';
import type { Db, Queryable } from '../../db/db.ts';
import type { MatchTally } from './delivery.match-tally.ts';

// send_batches.fixed_<group> = the group's count in $12 (tallyFixes, FIX_GROUPS order); all null when not counted.
const FIXED_SET = FIX_GROUPS.map((g, i) => `fixed_${g} = ($12::int[])[${i + 1}]`).join(', ');

/** A run's batches: claims under a lease, attempts, outcomes (with the ledger rows a sent batch writes), splits. */
export type BatchStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'split';

export interface BatchRow {
  id: string;
  run_id: string;
  workspace_id: string;
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
export const HELD_FIRST_HALF = `f.status = 'failed' and f.verdict = 'bad_rows' and f.part like '%0' and f.event_count > 1
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
const BATCH_BUT_ROWS = `id, run_id, workspace_id, idx, part, first_row, last_row, event_count, status, attempts,
  lease_token, lease_until, events_received, fbtrace_id, verdict, error_code, error_subcode, error_title,
  error_message, error_raw, payload_hash, failed_whole, created_at, updated_at`;

export const LEASE = `now() + make_interval(secs => $LEASE::double precision / 1000)`;
export const lease = (sql: string, n: number) => sql.replaceAll('$LEASE', `$${n}`);

export const batchesRepo = {
  /**
   * Records batch `idx` unless a worker already did; answers the stored payload hash either way. A batch recorded
   * here is already claimed by `token` (`claimed`) with its first attempt counted: neither the first claim nor the
   * first attempt costs a query of its own (the sender knows not to count it again).
   */
  async ensureBatch(
    db: Queryable,
    b: {
      runId: string;
      workspaceId: string;
      idx: number;
      rowNumbers: number[];
      payloadHash: string;
      token: string;
      leaseMs: number;
    },
  ): Promise<{ payloadHash: string; claimed: BatchRow | null }> {
    const inserted = await db.query<Omit<BatchRow, 'row_numbers'>>(
      lease(
        `insert into send_batches (id, run_id, workspace_id, idx, part, row_numbers, first_row, last_row, event_count,
           payload_hash, status, lease_token, lease_until, attempts)
         values ($1, $2, $3, $4, '', $5::int[], $6, $7, $8, $9, 'sending', $10, ${LEASE}, 1)
         on conflict (run_id, idx, part) do nothing returning ${BATCH_BUT_ROWS}`,
        11,
      ),
      [
        randomUUID(),
        b.runId,
        b.workspaceId,
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
    b: {
      batchId: string;
      token: string;
      eventsReceived: number;
      fbtraceId: string | null;
      /** What the batch's events carried, for Insights (null when its events had no match codes). */
      tally: MatchTally | null;
      /** Events with a value fixed automatically per fix group, for Insights (null when not counted: tallyFixes). */
      fixed: number[] | null;
    },
    ledger: {
      workspaceId: string;
      pixelId: string;
      runId: string;
      test: boolean;
      events: { name: string; id: string }[];
    },
  ): Promise<boolean> {
    const { rows } = await db.query<{ sent: number }>(
      `with sent as (
         update send_batches set status = 'sent', events_received = $9, fbtrace_id = $10, lease_token = null,
           lease_until = null, updated_at = now(), match_events = ($11::int[])[1], match_tenths = ($11::int[])[2], with_email = ($11::int[])[3],
           with_phone = ($11::int[])[4], with_name = ($11::int[])[5], with_address = ($11::int[])[6], with_external_id = ($11::int[])[7],
           ${FIXED_SET}
         where id = $7 and lease_token = $8 and status = 'sending' returning id),
       ledger as (
         insert into delivery_ledger (workspace_id, pixel_id, event_name, event_id, test, run_id)
         select $1, $2, n, i, $3, $4 from (select distinct n, i
           from rows from (json_array_elements_text($5::json), json_array_elements_text($6::json)) as t(n, i)) as d
         where exists (select 1 from sent)
         on conflict (pixel_id, event_id, event_name, workspace_id) do update
           set test = false, run_id = excluded.run_id, delivered_at = now()
           where delivery_ledger.test and not excluded.test)
       select count(*)::int as sent from sent`,
      [
        ledger.workspaceId,
        ledger.pixelId,
        ledger.test,
        ledger.runId,
        JSON.stringify(ledger.events.map((e) => e.name)),
        JSON.stringify(ledger.events.map((e) => e.id)),
        b.batchId,
        b.token,
        b.eventsReceived,
        b.fbtraceId,
        b.tally ? [b.tally.events, b.tally.tenths, ...b.tally.groups] : null,
        b.fixed,
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
          `insert into send_batches (id, run_id, workspace_id, idx, part, row_numbers, first_row, last_row, event_count, payload_hash,
             status, verdict, error_code, error_subcode, error_title, error_message, error_raw)
           values ($1, $2, $3, $4, $5, $6::int[], $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [
            randomUUID(),
            parent.run_id,
            parent.workspace_id,
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
  /** The rows of the run's batches Meta accepted. */
  async sentRowNumbers(db: Queryable, runId: string): Promise<number[]> {
    const { rows } = await db.query<{ rn: number }>(
      `select rn from send_batches b cross join lateral unnest(b.row_numbers) as rn
        where b.run_id = $1 and b.status = 'sent'`,
      [runId],
    );
    return rows.map((r) => r.rn);
  },

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

  async findBatchInWorkspace(
    db: Queryable,
    workspaceId: string,
    uploadId: string,
    batchId: string,
  ): Promise<BatchRow | null> {
    const { rows } = await db.query<BatchRow>(
      `select b.* from send_batches b join send_runs r on r.id = b.run_id
       where b.id = $1 and b.workspace_id = $2 and r.upload_id = $3`,
      [batchId, workspaceId, uploadId],
    );
    return rows[0] ?? null;
  },
};
