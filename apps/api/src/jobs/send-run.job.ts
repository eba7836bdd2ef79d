import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../app.ts';
import { runSend } from '../modules/delivery/delivery.engine.ts';
import { deliveryRepo } from '../modules/delivery/delivery.repo.ts';
import { SEND_RUN_JOB } from '../modules/delivery/delivery.service.ts';
import { appDeliverySource } from '../modules/delivery/delivery.source.ts';

/**
 * Sends runs to Meta. A run's job may be picked up again (retry, restart, a second worker): the engine
 * claims batch by batch, so that is always safe. At start every run left 'running' by a crash is re-queued.
 */
export async function registerSendRunJob(boss: PgBoss, deps: ResolvedDeps): Promise<void> {
  const { db, config } = deps;
  // Long files take longer than pg-boss's default 15-minute expiry; a retry would be safe but wasteful.
  await boss.createQueue(SEND_RUN_JOB, { name: SEND_RUN_JOB, retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 6 * 3600 });
  const source = appDeliverySource(db, config);
  await boss.work<{ runId: string }>(SEND_RUN_JOB, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    await runSend(
      {
        db,
        source,
        fetch: deps.fetch,
        graphUrl: config.meta.graphUrl,
        apiVersion: config.meta.apiVersion,
        batchSize: config.sendBatchSize,
        concurrency: config.sendConcurrency,
      },
      job.data.runId,
    );
  });
  for (const runId of await deliveryRepo.runningRunIds(db)) await boss.send(SEND_RUN_JOB, { runId });
}
