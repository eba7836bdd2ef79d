import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/db.ts';
import {
  dbConnections,
  jobQueueDepth,
  jobQueueOldest,
  registry,
  sendRunsInFlight,
  sourceRunDelay,
  sourceRuns,
} from '../../lib/metrics.ts';
import { metricsRepo } from './metrics.repo.ts';

/** Compares digests, so the time taken tells nothing of how much of the token matched. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (!given) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Reads the database's figures into their gauges, then answers the whole registry as Prometheus text. */
export async function scrape(db: Db): Promise<{ contentType: string; body: string }> {
  const [inFlight, queues, outcomes, delay] = await Promise.all([
    metricsRepo.sendRunsInFlight(db),
    metricsRepo.queues(db),
    metricsRepo.sourceRunsByOutcome(db),
    metricsRepo.sourceRunDelay(db),
  ]);
  sendRunsInFlight.set(inFlight);
  // Labels of queues or outcomes that are empty now must not keep their last value.
  jobQueueDepth.reset();
  jobQueueOldest.reset();
  for (const q of queues) {
    jobQueueDepth.set({ queue: q.queue }, q.depth);
    jobQueueOldest.set({ queue: q.queue }, q.oldest);
  }
  sourceRuns.reset();
  for (const o of outcomes) sourceRuns.set({ outcome: o.outcome }, o.n);
  sourceRunDelay.reset();
  for (const stat of ['p50', 'p99', 'max'] as const)
    if (delay[stat] !== null) sourceRunDelay.set({ stat }, delay[stat]);
  const pool = db.poolStats();
  for (const state of ['total', 'idle', 'waiting'] as const) dbConnections.set({ state }, pool[state]);
  return { contentType: registry.contentType, body: await registry.metrics() };
}
