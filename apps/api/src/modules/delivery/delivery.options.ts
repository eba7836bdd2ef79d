import type { ResolvedDeps } from '../../deps.ts';
import type { Db } from '../../db/db.ts';
import type { EngineOptions } from './delivery.engine.ts';
import { appDeliverySource } from './delivery.source.ts';

/** The delivery engine's settings from the app's config: the same for the send job, a source's run and a v1 events call. */
export function engineOptions(deps: ResolvedDeps, db: Db = deps.db): EngineOptions {
  const { config } = deps;
  return {
    db,
    source: appDeliverySource(db, config),
    fetch: deps.fetch,
    graphUrl: config.meta.graphUrl,
    apiVersion: config.meta.apiVersion,
    batchSize: config.sendBatchSize,
    concurrency: config.sendConcurrency,
    leaseMs: config.sendTiming.staleAfterMs,
    heartbeatMs: config.sendTiming.heartbeatMs,
    // A live worker of the run looks for a dead peer's expired leases as often as the sweepers look for dead runs.
    pollMs: config.sendTiming.sweepEveryMs,
  };
}
