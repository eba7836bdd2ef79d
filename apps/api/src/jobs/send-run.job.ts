import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../deps.ts';
import type { Db } from '../db/db.ts';
import { runSend, type EngineOptions } from '../modules/delivery/delivery.engine.ts';
import { mailSendNotices } from '../modules/delivery/delivery.notices.ts';
import { deliveryRepo, type RunStatus } from '../modules/delivery/delivery.repo.ts';
import { SEND_RUN_JOB } from '../modules/delivery/delivery.service.ts';
import { engineOptions } from '../modules/delivery/delivery.options.ts';
import { precountSkipped } from '../modules/delivery/delivery.precount.ts';
import { DEFAULT_TIMING, QUEUE_POLL_MS, type DeliveryTiming } from '../modules/delivery/delivery.timing.ts';

/** What the user reads when a run ends on an error we could not get past after every retry. */
export const INTERNAL_STOP =
  'Backsignal hit an internal error several times in a row while sending this file and stopped.';

export interface SendRunJob {
  data: { runId: string };
  retryCount: number;
  retryLimit: number;
}

/**
 * One attempt of a run's job. Errors a retry may cure (a database hiccup) are rethrown so pg-boss tries again;
 * on the job's last attempt the run is stopped with reason 'internal' instead, so /summary never polls a run
 * nobody will finish. Failures no retry can fix are already turned into 'internal' stops by the engine.
 */
export async function handleSendRunJob(
  opts: EngineOptions,
  job: SendRunJob,
  log: { error: (obj: unknown, msg: string) => void } = console,
): Promise<RunStatus | null> {
  // Beside the send: the summary shows already-delivered rows as skipped long before the plan is done.
  const precount = precountSkipped(opts.db, opts.source, job.data.runId).catch((err: unknown) =>
    log.error({ err, runId: job.data.runId }, 'skipped-events count failed'),
  );
  try {
    return await runSend(opts, job.data.runId);
  } catch (err) {
    log.error({ err, runId: job.data.runId, attempt: job.retryCount + 1 }, 'send run failed');
    if (job.retryCount < job.retryLimit) throw err;
    await deliveryRepo.stopRun(opts.db, job.data.runId, 'internal', INTERNAL_STOP);
    return 'stopped';
  } finally {
    await precount;
  }
}

/** How long a run may be quiet (no heartbeat, no batch change) before a sweeper re-queues it, by default. */
export const STALE_AFTER_MS = DEFAULT_TIMING.staleAfterMs;

/**
 * One job per run at a time: 'short' makes pg-boss honour singletonKey for queued jobs (a second send of the
 * same key while one is queued is dropped). An active job does not block a new one, which is what lets a
 * sweeper re-queue a run whose worker died with its job still 'active' until pg-boss's expiry.
 */
export async function ensureSendRunQueue(boss: PgBoss): Promise<void> {
  // Long files take longer than pg-boss's default 15-minute expiry; a retry would be safe but wasteful.
  const options = {
    name: SEND_RUN_JOB,
    policy: 'short' as const,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 6 * 3600,
  };
  await boss.createQueue(SEND_RUN_JOB, options);
  // Queues created before the policy existed keep their old one unless updated.
  await boss.updateQueue(SEND_RUN_JOB, options);
}

export const enqueueRun = (boss: PgBoss, runId: string) =>
  boss.send(SEND_RUN_JOB, { runId }, { singletonKey: runId });

/** Re-queues runs whose worker went quiet (crashed); answers the run ids it found. */
export async function sweepStaleRuns(boss: PgBoss, db: Db, quietMs = STALE_AFTER_MS): Promise<string[]> {
  const ids = await deliveryRepo.staleRunIds(db, quietMs);
  for (const runId of ids) await enqueueRun(boss, runId);
  return ids;
}

/**
 * Sends runs to Meta. A run's job may be picked up again (retry, restart, a second worker): the engine
 * claims batch by batch, so that is always safe. Every worker sweeps for runs left 'running' by a crashed
 * worker at start and every `sweepEveryMs`, re-queuing only runs nobody has beaten for `staleAfterMs`, at most one
 * queued job per run. Answers a function that stops the sweeps.
 */
export async function startSendRunWorker(
  boss: PgBoss,
  opts: EngineOptions,
  timing: DeliveryTiming,
  /** After each job and each sweep: mails about the runs that ended (a run ended by a dead worker's peer too). */
  afterRuns: () => Promise<unknown> = async () => undefined,
): Promise<() => void> {
  await ensureSendRunQueue(boss);
  await boss.work<{ runId: string }>(
    SEND_RUN_JOB,
    { batchSize: 1, pollingIntervalSeconds: QUEUE_POLL_MS / 1000, includeMetadata: true },
    async ([job]) => {
      if (!job) return;
      await handleSendRunJob(opts, job);
      await afterRuns().catch((err: unknown) => console.error('send notices failed', err));
    },
  );
  const sweep = () =>
    sweepStaleRuns(boss, opts.db, timing.staleAfterMs)
      .then(afterRuns)
      .catch((err: unknown) => console.error('send-run sweep failed', err));
  await sweep();
  const timer = setInterval(() => void sweep(), timing.sweepEveryMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  boss.once('stopped', stop);
  return stop;
}

export async function registerSendRunJob(boss: PgBoss, deps: ResolvedDeps): Promise<void> {
  const db = deps.db.background();
  await startSendRunWorker(boss, engineOptions(deps, db), deps.config.sendTiming, () =>
    mailSendNotices({ ...deps, db }),
  );
}
