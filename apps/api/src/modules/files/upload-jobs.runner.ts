import type { UploadJobError } from '@backsignal/contracts';
import type { Db } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { takeQuota, type Quotas } from '../usage/quota.service.ts';
import type { DeliveryTiming } from '../delivery/delivery.timing.ts';
import { filesRepo } from './files.repo.ts';
import { preparePass, validatePass, type FilePass } from './files.service.ts';
import { uploadJobsRepo, type UploadJobRow } from './upload-jobs.repo.ts';

/** What a job runner needs: the database, the quotas, a clock, and the timing of beats and takeovers. */
export interface JobDeps {
  db: Db;
  quotas: Quotas;
  now: () => Date;
  /** Beat every heartbeatMs; a job quiet for staleAfterMs is taken over by the next sweep (every sweepEveryMs). */
  timing: DeliveryTiming;
  log?: { error: (obj: object, msg: string) => void };
  /** Tests: hears the rows read so far after each chunk (the crash test kills its worker here). */
  onProgress?: (rowsDone: number) => void;
}

/** Progress is written at most this often: enough for a live bar, light on the database. */
export const PROGRESS_EVERY_MS = 1_000;
/** A job whose worker died this many times is failed instead of run again (a file that kills its worker). */
export const MAX_ATTEMPTS = 3;
export const INTERNAL_JOB_ERROR: UploadJobError = {
  code: 'INTERNAL',
  message: 'Something went wrong on our side. Please try again.',
};

const PASSES: Record<UploadJobRow['kind'], FilePass<unknown>> = {
  validate: validatePass,
  prepare: preparePass,
};

/** This worker no longer holds the job's claim: it stops and writes nothing. */
class ClaimLost extends Error {}

/** Jobs running in this process, so a request waiting for one (the old GET routes) need not poll. */
const local = new Map<string, Promise<void>>();

export const runningHere = (jobId: string) => local.get(jobId);

/**
 * Runs one claimed job to its end in the background: starts at once, never rejects. The pass has no side effect
 * until its end, so a job taken over from a dead worker simply runs again.
 */
export function launch(deps: JobDeps, job: UploadJobRow): Promise<void> {
  // The pass reads the whole file: its statements give way to requests' (decision 0095).
  const run = runJob({ ...deps, db: deps.db.background() }, job)
    .catch((err: unknown) => deps.log?.error({ err, jobId: job.id }, 'upload job failed'))
    .finally(() => local.delete(job.id));
  local.set(job.id, run);
  return run;
}

/**
 * The worker's beat while it holds the job: the progress when it moved (at most once a PROGRESS_EVERY_MS), else a
 * plain beat every heartbeatMs. `lost` turns true once a beat finds the claim gone.
 */
function startBeats(deps: JobDeps, job: UploadJobRow) {
  let progress: { stage: 'queued' | 'reading'; rowsDone: number } = { stage: 'queued', rowsDone: 0 };
  let written = { ...progress };
  let lastBeat = Date.now();
  let lastProgress = 0;
  let writing: Promise<void> | null = null;
  let lost = false;
  const tick = () => {
    if (writing) return;
    const now = Date.now();
    const moved = progress.rowsDone !== written.rowsDone || progress.stage !== written.stage;
    const withProgress = moved && now - lastProgress >= PROGRESS_EVERY_MS;
    if (!withProgress && now - lastBeat < deps.timing.heartbeatMs) return;
    const p = { ...progress };
    writing = uploadJobsRepo
      .beat(deps.db, job.id, job.claimToken, withProgress ? p : undefined)
      .then((ours) => {
        if (!ours) lost = true;
        if (withProgress) {
          written = p;
          lastProgress = now;
        }
        lastBeat = now;
      })
      .catch(() => {}) // a missed beat is retried by the next tick; staleness allows several
      .finally(() => (writing = null));
  };
  const timer = setInterval(tick, Math.min(PROGRESS_EVERY_MS / 4, deps.timing.heartbeatMs));
  timer.unref();
  return {
    /** Rows read so far; throws once the claim is lost, which ends the pass. */
    progress(rowsDone: number) {
      if (lost) throw new ClaimLost();
      progress = { stage: 'reading', rowsDone };
      deps.onProgress?.(rowsDone);
    },
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}

async function runJob(deps: JobDeps, job: UploadJobRow): Promise<void> {
  const { db } = deps;
  const pass = PASSES[job.kind];
  const beats = startBeats(deps, job);
  try {
    let f, summary;
    try {
      f = await filesRepo.findInWorkspace(db, job.workspaceId, job.uploadId);
      if (!f) throw new AppError('NOT_FOUND', 'File not found.');
      pass.check(f);
      await takeQuotaOnce(deps, job, f.rowCount, pass.quota);
      summary = await pass.read(db, f, deps.now(), (rows) => beats.progress(rows));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await beats.stop();
      await finishWithError(db, job, jobError(err));
      return;
    }
    await beats.stop();
    await uploadJobsRepo.beat(db, job.id, job.claimToken, {
      stage: 'finishing',
      rowsDone: summary.rowsChecked,
    });
    // The pass's only writes, with the job's outcome, in one transaction and only while the claim is ours.
    await db.transaction(async (tx) => {
      if (!(await uploadJobsRepo.lockClaim(tx, job.id, job.claimToken))) throw new ClaimLost();
      const saved = await pass.save(tx, f, summary);
      await uploadJobsRepo.finish(
        tx,
        job.id,
        job.claimToken,
        'result' in saved ? saved : { error: jobError(saved.error) },
      );
    });
  } catch (err) {
    if (err instanceof ClaimLost) return;
    // Not the file's fault (a database error mid-pass): the job says so; a new run may succeed.
    deps.log?.error({ err, jobId: job.id }, 'upload job failed');
    await finishWithError(db, job, INTERNAL_JOB_ERROR).catch(() => {});
  } finally {
    await beats.stop();
  }
}

const jobError = (e: AppError): UploadJobError => ({
  code: e.code,
  message: e.message,
  ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
});

const finishWithError = (db: Db, job: UploadJobRow, error: UploadJobError) =>
  uploadJobsRepo.finish(db, job.id, job.claimToken, { error });

/** The daily quota counts a job once: a worker that takes it over from a dead one does not count it again. */
async function takeQuotaOnce(
  deps: JobDeps,
  job: UploadJobRow,
  rows: number,
  action: 'validate' | 'prepare',
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await uploadJobsRepo.markQuotaTaken(tx, job.id, job.claimToken))) {
      // Already counted by an earlier attempt, or the claim is gone (then the pass stops at its first rows).
      return;
    }
    await takeQuota(tx, {
      quotas: deps.quotas,
      workspaceId: job.workspaceId,
      action,
      amount: rows,
      now: deps.now(),
    });
  });
}
