import { randomUUID } from 'node:crypto';
import type { UploadJob, UploadJobKind, ValidationResponse } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError } from '../../errors/app-error.ts';
import type { UploadRow } from './files.repo.ts';
import { ownFile, skipsErrorRows } from './files.service.ts';
import { jobFingerprint, refundChoice } from './pipeline.ts';
import { uploadJobsRepo, type UploadJobRow } from './upload-jobs.repo.ts';
import { INTERNAL_JOB_ERROR, launch, MAX_ATTEMPTS, runningHere, type JobDeps } from './upload-jobs.runner.ts';

/** The jobs' dependencies from the app's: file jobs beat and are taken over on the send's timing. */
export const jobDeps = (deps: ResolvedDeps, log?: JobDeps['log']): JobDeps => ({
  db: deps.db,
  quotas: deps.config.quotas,
  now: deps.now,
  timing: deps.config.sendTiming,
  ...(log ? { log } : {}),
});

/** How often a request waiting for a job run by another process looks at it again. */
const WAIT_POLL_MS = 200;

export function presentJob(job: UploadJobRow, upload: UploadRow): UploadJob {
  let result = job.status === 'done' ? job.result : null;
  if (result && job.kind === 'validate') {
    // The user's choice to skip the rows with errors is made after the validation: read it as it is now.
    const v = result as ValidationResponse;
    result = {
      ...v,
      skipErrorRows: v.rowsWithErrors > 0 && skipsErrorRows(upload),
      refundChoice: refundChoice(upload),
    };
  }
  return {
    id: job.id,
    uploadId: job.uploadId,
    kind: job.kind,
    status: job.status,
    stage: job.stage,
    rowsDone: Math.min(job.rowsDone, job.rowsTotal),
    rowsTotal: job.rowsTotal,
    stale: job.fingerprint !== jobFingerprint(upload, job.kind),
    startedAt: job.startedAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    result,
  } as UploadJob;
}

/**
 * Starts a validation or prepare of the user's file in the background, or answers the one already running for
 * the same content and mapping (one at a time per file and kind). The job runs in this process at once; a
 * sweeper anywhere takes it over if this process dies.
 */
export async function startJob(
  deps: JobDeps,
  workspaceId: string,
  uploadId: string,
  kind: UploadJobKind,
): Promise<{ job: UploadJobRow; upload: UploadRow; started: boolean }> {
  const upload = await ownFile(deps.db, workspaceId, uploadId);
  const { job, started } = await uploadJobsRepo.start(deps.db, {
    id: randomUUID(),
    uploadId: upload.id,
    workspaceId,
    kind,
    fingerprint: jobFingerprint(upload, kind),
    claimToken: randomUUID(),
    rowsTotal: upload.rowCount,
  });
  if (started) void launch(deps, job);
  return { job, upload, started };
}

/** The file's job of this kind, if one ever ran (only the latest is kept). */
export async function findJob(deps: JobDeps, workspaceId: string, uploadId: string, kind: UploadJobKind) {
  const upload = await ownFile(deps.db, workspaceId, uploadId);
  return { job: await uploadJobsRepo.find(deps.db, upload.id, kind), upload };
}

/**
 * Waits until the job has finished and answers its result, or throws the error it ended on: the spec's
 * one-request routes (GET validate, GET prepare) on top of the jobs.
 */
export async function jobOutcome(deps: JobDeps, jobId: string): Promise<unknown> {
  for (;;) {
    await runningHere(jobId);
    const job = await uploadJobsRepo.get(deps.db, jobId);
    if (!job) {
      // Replaced by a newer job: the file's content or mapping changed while this one ran.
      throw new AppError('CONFLICT', 'The file changed while it was being checked. Please try again.');
    }
    if (job.status === 'done') return job.result;
    if (job.status === 'failed') {
      const e = job.error ?? INTERNAL_JOB_ERROR;
      throw new AppError(e.code, e.message, undefined, e.retryAfterSeconds);
    }
    if (!runningHere(jobId)) await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
}

/**
 * Takes over the jobs whose worker went quiet (crashed, killed) and runs them here, each under a new claim.
 * A job that has lost its worker MAX_ATTEMPTS times is failed instead. Answers the ids it took.
 */
export async function sweepStaleJobs(deps: JobDeps): Promise<string[]> {
  const taken = await uploadJobsRepo.claimStale(deps.db, deps.timing.staleAfterMs, randomUUID());
  for (const job of taken) {
    if (job.attempts > MAX_ATTEMPTS) {
      await uploadJobsRepo.finish(deps.db, job.id, job.claimToken, { error: INTERNAL_JOB_ERROR });
    } else void launch(deps, job);
  }
  return taken.map((j) => j.id);
}

/** Every process that runs background jobs sweeps for dead workers' file jobs at start and every sweepEveryMs. */
export function startUploadJobSweeper(deps: JobDeps): () => void {
  const sweep = () =>
    sweepStaleJobs(deps).catch((err: unknown) => deps.log?.error({ err }, 'upload job sweep failed'));
  void sweep();
  const timer = setInterval(() => void sweep(), deps.timing.sweepEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
