import type { UploadJobError, UploadJobKind, UploadJobStage } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { jsonColumn } from '../../db/json-column.ts';

export interface UploadJobRow {
  id: string;
  uploadId: string;
  workspaceId: string;
  kind: UploadJobKind;
  status: 'running' | 'done' | 'failed';
  stage: UploadJobStage;
  fingerprint: string;
  claimToken: string;
  attempts: number;
  quotaTaken: boolean;
  rowsDone: number;
  rowsTotal: number;
  result: unknown;
  error: UploadJobError | null;
  heartbeatAt: Date;
  startedAt: Date;
  finishedAt: Date | null;
}

function toRow(r: Record<string, unknown>): UploadJobRow {
  return {
    id: r.id as string,
    uploadId: r.upload_id as string,
    workspaceId: r.workspace_id as string,
    kind: r.kind as UploadJobKind,
    status: r.status as UploadJobRow['status'],
    stage: r.stage as UploadJobStage,
    fingerprint: r.fingerprint as string,
    claimToken: r.claim_token as string,
    attempts: Number(r.attempts),
    quotaTaken: r.quota_taken as boolean,
    rowsDone: Number(r.rows_done),
    rowsTotal: Number(r.rows_total),
    result: r.result === null || r.result === undefined ? null : jsonColumn(r.result),
    error: r.error ? jsonColumn<UploadJobError>(r.error) : null,
    heartbeatAt: r.heartbeat_at as Date,
    startedAt: r.started_at as Date,
    finishedAt: (r.finished_at as Date | null) ?? null,
  };
}

const stale = (n: number) => `heartbeat_at < now() - make_interval(secs => $${n}::double precision / 1000)`;

export const uploadJobsRepo = {
  /**
   * Starts a job unless one is running for the same upload, kind and fingerprint: then that one is answered
   * (`started` false). A running job for another fingerprint (the mapping changed meanwhile) is replaced: its
   * worker loses its claim and its result is never written. One statement, so two requests cannot both start.
   */
  async start(
    db: Queryable,
    j: {
      id: string;
      uploadId: string;
      workspaceId: string;
      kind: UploadJobKind;
      fingerprint: string;
      claimToken: string;
      rowsTotal: number;
    },
  ): Promise<{ job: UploadJobRow; started: boolean }> {
    const started = await db.query(
      `insert into upload_jobs (id, upload_id, workspace_id, kind, fingerprint, claim_token, rows_total)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (upload_id, kind) do update set id = excluded.id, status = 'running', stage = 'queued',
         fingerprint = excluded.fingerprint, claim_token = excluded.claim_token, attempts = 1, quota_taken = false,
         rows_done = 0, rows_total = excluded.rows_total, result = null, error = null, heartbeat_at = now(),
         started_at = now(), finished_at = null
       where upload_jobs.status <> 'running' or upload_jobs.fingerprint <> excluded.fingerprint
       returning *`,
      [j.id, j.uploadId, j.workspaceId, j.kind, j.fingerprint, j.claimToken, j.rowsTotal],
    );
    if (started.rows[0]) return { job: toRow(started.rows[0]), started: true };
    const running = await this.find(db, j.uploadId, j.kind);
    // Only a job that finished between the two statements is missing here: start again.
    return running ? { job: running, started: false } : this.start(db, j);
  },

  async find(db: Queryable, uploadId: string, kind: UploadJobKind): Promise<UploadJobRow | null> {
    const r = await db.query('select * from upload_jobs where upload_id = $1 and kind = $2', [
      uploadId,
      kind,
    ]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  },

  async get(db: Queryable, id: string): Promise<UploadJobRow | null> {
    const r = await db.query('select * from upload_jobs where id = $1', [id]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  },

  /**
   * The worker holding `token` is alive: beats, and reports how far it got. Answers false when the claim is lost
   * (taken over, replaced by a newer job, or finished), so the worker stops.
   */
  async beat(
    db: Queryable,
    id: string,
    token: string,
    p?: { stage: UploadJobStage; rowsDone: number },
  ): Promise<boolean> {
    const r = p
      ? await db.query(
          `update upload_jobs set heartbeat_at = now(), stage = $3, rows_done = greatest(rows_done, $4)
           where id = $1 and claim_token = $2 and status = 'running'`,
          [id, token, p.stage, p.rowsDone],
        )
      : await db.query(
          `update upload_jobs set heartbeat_at = now() where id = $1 and claim_token = $2 and status = 'running'`,
          [id, token],
        );
    return r.rowCount > 0;
  },

  /**
   * Running jobs whose worker went quiet for `quietMs` (crashed, killed), claimed for this worker under a new
   * token: row locks make each job one worker's, whatever the number of sweepers (SKIP LOCKED, then the
   * staleness is checked again on the locked row). Jobs past `maxAttempts` are answered too, to be failed.
   */
  async claimStale(db: Queryable, quietMs: number, newToken: string, limit = 4): Promise<UploadJobRow[]> {
    const r = await db.query(
      `update upload_jobs set claim_token = $2, attempts = attempts + 1, heartbeat_at = now(), stage = 'queued',
         rows_done = 0
       where id in (select id from upload_jobs where status = 'running' and ${stale(1)}
         order by heartbeat_at limit $3 for update skip locked)
         and status = 'running' and ${stale(1)}
       returning *`,
      [quietMs, newToken, limit],
    );
    return r.rows.map(toRow);
  },

  /** Counts the daily quota for this job once: false when an earlier attempt already did. */
  async markQuotaTaken(tx: Queryable, id: string, token: string): Promise<boolean> {
    const r = await tx.query(
      `update upload_jobs set quota_taken = true where id = $1 and claim_token = $2 and not quota_taken`,
      [id, token],
    );
    return r.rowCount > 0;
  },

  /**
   * Holds the job's row for the transaction that writes its outcome, if `token` still holds the claim: a worker
   * that lost it (a takeover, a newer job) writes nothing.
   */
  async lockClaim(tx: Queryable, id: string, token: string): Promise<boolean> {
    const r = await tx.query(
      `select id from upload_jobs where id = $1 and claim_token = $2 and status = 'running' for update`,
      [id, token],
    );
    return r.rows.length > 0;
  },

  async finish(
    tx: Queryable,
    id: string,
    token: string,
    outcome: { result: unknown } | { error: UploadJobError },
  ): Promise<boolean> {
    const r = await tx.query(
      `update upload_jobs set status = $3, stage = 'finished', result = $4, error = $5, finished_at = now(),
         heartbeat_at = now(), rows_done = case when $3 = 'done' then rows_total else rows_done end
       where id = $1 and claim_token = $2 and status = 'running'`,
      [
        id,
        token,
        'result' in outcome ? 'done' : 'failed',
        'result' in outcome ? JSON.stringify(outcome.result) : null,
        'error' in outcome ? JSON.stringify(outcome.error) : null,
      ],
    );
    return r.rowCount > 0;
  },
};
