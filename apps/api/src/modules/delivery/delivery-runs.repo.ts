import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import { HELD_FIRST_HALF, lease, LEASE } from './delivery-batches.repo.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import { outboxInsert } from '../webhooks/webhook-outbox.repo.ts';

/**
 * The webhook event of a run the statement's `ended` CTE just ended: send.completed (with or without failed
 * events) or send.failed (stopped), with ids and the counts the summary shows. A source's run names its source.
 */
const RUN_ENDED_WEBHOOK = outboxInsert(`select d.workspace_id,
    case when d.status = 'stopped' then 'send.failed' else 'send.completed' end,
    jsonb_build_object('runId', d.id, 'uploadId', d.upload_id, 'status', d.status, 'stopReason', d.stop_reason,
      'pixelAccountId', d.pixel_account_id, 'pixelId', d.pixel_id, 'test', d.test_event_code is not null,
      'sourceId', (select sr.source_id from source_runs sr where sr.send_run_id = d.id limit 1),
      'eventsSent', coalesce((select sum(b.event_count) from send_batches b where b.run_id = d.id and b.status = 'sent'), 0),
      'eventsFailed', coalesce((select sum(f.event_count) from send_batches f where f.run_id = d.id and f.status = 'failed' and not (${HELD_FIRST_HALF})), 0),
      'eventsSkipped', case when d.planned or d.skipped_counted then d.skipped_events end)
  from ended d`);
import { insightsCounters } from '../insights/insights-counters.repo.ts';

/** Send runs: one per send (or retry) of an upload, with its plan, heartbeat, throttle and outcome. */
export type RunStatus = 'running' | 'completed' | 'completed_with_errors' | 'stopped';
export type StopReason = 'token' | 'permission' | 'pixel' | 'internal';
export interface RunRow {
  id: string;
  workspace_id: string;
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

/** An ended run to mail about (claimNotices). */
export interface NoticeRow {
  id: string;
  workspace_id: string;
  slug: string;
  upload_id: string;
  status: RunStatus;
  stop_reason: StopReason | null;
  stop_error: string | null;
  account_name: string;
  file_name: string | null;
  /** The source whose run started the send, if one did. */
  source_id: string | null;
  source_name: string | null;
  starter_email: string | null;
  sent: number;
  failed: number;
}

/** The clock a run's file is read with: the same for every worker and every retry, so the same events come out. */
export const readTime = (run: Pick<RunRow, 'read_at' | 'created_at'>): Date => run.read_at ?? run.created_at;

export const runsRepo = {
  async createRun(
    db: Queryable,
    r: {
      workspaceId: string;
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
      /** The member who started it; null for a source's scheduled run. */
      startedBy?: string | null;
    },
  ): Promise<RunRow> {
    const { rows } = await db.query<RunRow>(
      `insert into send_runs (id, workspace_id, upload_id, pixel_account_id, pixel_id, account_name, test_event_code,
         skip_delivered, total_events, retry_of, read_at, started_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning *`,
      [
        randomUUID(),
        r.workspaceId,
        r.uploadId,
        r.accountId,
        r.pixelId,
        r.accountName,
        r.testEventCode,
        r.skipDelivered,
        r.expectedEvents ?? null,
        r.retryOf ?? null,
        r.readAt ?? null,
        r.startedBy ?? null,
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

  async latestRunForUpload(db: Queryable, workspaceId: string, uploadId: string): Promise<RunRow | null> {
    const { rows } = await db.query<RunRow>(
      'select * from send_runs where workspace_id = $1 and upload_id = $2 order by created_at desc limit 1',
      [workspaceId, uploadId],
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
    // The activity entry, the webhook event and Insights' counters are written by the statement that ends the
    // run: once, whichever worker ends it.
    await db.query(
      `with ended as (update send_runs set status = 'stopped', stop_reason = $2, stop_error = $3, finished_at = now(),
         updated_at = now(), notice_due = true
       where id = $1 and status = 'running' returning *),
       hooked as (${RUN_ENDED_WEBHOOK}),
       noted as (${activityRepo.runFinishedInsert()})${insightsCounters.runEndedCtes()}
       select 1`,
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
      `with ended as (update send_runs r set
         status = case when exists (select 1 from send_batches b where b.run_id = r.id and b.status = 'failed')
                       then 'completed_with_errors' else 'completed' end,
         notice_due = exists (select 1 from send_batches b where b.run_id = r.id and b.status = 'failed'),
         finished_at = now(), updated_at = now()
       where r.id = $1 and r.status = 'running' and r.planned
         and not exists (select 1 from send_batches b where b.run_id = r.id and b.status in ('pending', 'sending'))
         and not exists (select 1 from send_batches f where f.run_id = r.id and ${HELD_FIRST_HALF})
       returning r.*),
       noted as (${activityRepo.runFinishedInsert()}),
       hooked as (${RUN_ENDED_WEBHOOK})${insightsCounters.runEndedCtes()}
       select status from ended`,
      [runId],
    );
    return rows[0]?.status ?? null;
  },

  /**
   * Takes up to `limit` ended runs whose notice is due (failed events, or stopped) and clears the mark in the same
   * statement: two workers never take one run. With what the mail says, counted as the summary counts, and the
   * starter's address while they are still a member (a removed member hears nothing more of the workspace).
   */
  async claimNotices(db: Queryable, limit: number): Promise<NoticeRow[]> {
    const { rows } = await db.query<NoticeRow>(
      `with due as (update send_runs set notice_due = false
         where id in (select id from send_runs where notice_due order by finished_at limit $1 for update skip locked)
         returning *)
       select d.id, d.workspace_id, w.slug, d.upload_id, d.status, d.stop_reason, d.stop_error, d.account_name,
         up.file_name, src.source_id, src.source_name,
         (select u.email from users u join workspace_members m on m.user_id = u.id and m.workspace_id = d.workspace_id
           where u.id = d.started_by) as starter_email,
         coalesce((select sum(b.event_count) from send_batches b where b.run_id = d.id and b.status = 'sent'), 0)::int as sent,
         coalesce((select sum(f.event_count) from send_batches f where f.run_id = d.id and f.status = 'failed'
           and not (${HELD_FIRST_HALF})), 0)::int as failed
       from due d join workspaces w on w.id = d.workspace_id left join uploads up on up.id = d.upload_id
       left join lateral (select s.id as source_id, s.name as source_name from source_runs sr
         join sources s on s.id = sr.source_id where sr.send_run_id = d.id limit 1) src on true`,
      [limit],
    );
    return rows;
  },

  /**
   * Per upload, its latest run's status, events failed and skipped (counted as in totals) and pixel, with the
   * events sent by every run of the upload: a retry sends only what the runs before it did not.
   */
  async latestOutcomes(db: Queryable, workspaceId: string, uploadIds: string[]): Promise<OutcomeRow[]> {
    if (!uploadIds.length) return [];
    const { rows } = await db.query<OutcomeRow>(
      `select r.upload_id, r.status, r.account_name, r.pixel_id,
         coalesce((select sum(f.event_count) from send_batches f join send_runs a on a.id = f.run_id
           where a.upload_id = r.upload_id and f.status = 'sent'), 0)::int as sent,
         coalesce((select sum(f.event_count) from send_batches f where f.run_id = r.id and f.status = 'failed'
           and not (${HELD_FIRST_HALF})), 0)::int as failed,
         case when r.planned or r.skipped_counted then r.skipped_events end as skipped
       from (select distinct on (upload_id) * from send_runs where workspace_id = $1 and upload_id = any($2::uuid[])
         order by upload_id, created_at desc) r`,
      [workspaceId, uploadIds],
    );
    return rows;
  },

  /**
   * The account of the user's latest finished send of a file like this one (the same columns, so the same export
   * or template, or the same source), if that account is still good: not waiting for a new token, and neither
   * its last send since nor its last connection test failed. Null otherwise: the send step then preselects none.
   */
  async lastGoodAccount(db: Queryable, workspaceId: string, uploadId: string): Promise<string | null> {
    const { rows } = await db.query<{ id: string }>(
      `select p.id from send_runs r
         join uploads u on u.id = r.upload_id
         join uploads me on me.id = $2 and me.workspace_id = $1
         join pixel_accounts p on p.id = r.pixel_account_id and p.workspace_id = $1
         cross join lateral (select s.status, s.finished_at from send_runs s
           where s.pixel_account_id = p.id and s.status <> 'running'
           order by s.finished_at desc nulls last limit 1) last
       where r.workspace_id = $1 and r.status in ('completed', 'completed_with_errors') and r.upload_id <> $2
         and (u.headers = me.headers or exists (select 1 from source_runs a join source_runs b on b.source_id = a.source_id
           where a.upload_id = r.upload_id and b.upload_id = $2))
         and p.status = 'active'
         and case when p.last_test_at is not null and (last.finished_at is null or p.last_test_at > last.finished_at)
           then p.last_test_ok else last.status <> 'stopped' end
       order by r.created_at desc limit 1`,
      [workspaceId, uploadId],
    );
    return rows[0]?.id ?? null;
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
