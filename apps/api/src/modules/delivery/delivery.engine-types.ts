import { MAX_RETRY_AFTER_MS, type BackoffPolicy, type EncodedEvent } from '@backsignal/core';
import type { Db } from '../../db/db.ts';
import type { BatchRow, RunRow } from './delivery.repo.ts';

/** Where a run's events and credentials come from: the workflow module in the app, fakes in tests. */
export interface DeliverySource {
  /** The run's prepared events in file order; must yield the same events on every call. */
  events(run: RunRow): AsyncIterable<{ rowNumber: number; event: EncodedEvent }>;
  credentials(run: RunRow): Promise<{ pixelId: string; accessToken: string } | null>;
  markReconnectNeeded(run: RunRow): Promise<void>;
}

/** Points where tests simulate a crash (kill -9) to prove resume never loses or double-counts a batch. */
export type CrashPoint = 'before-send' | 'after-answer' | 'after-commit';

export interface EngineOptions {
  db: Db;
  source: DeliverySource;
  fetch: typeof fetch;
  graphUrl: string;
  apiVersion: string;
  batchSize: number;
  concurrency: number;
  /** Per request. Meta suggests 1.5 s for single events; full batches of 1,000 need far longer. */
  timeoutMs?: number;
  /**
   * How long a claimed batch stays ours after this worker's last heartbeat; a crashed worker's batches are taken
   * over after it (SEND_STALE_AFTER_MS, 20 s).
   */
  leaseMs?: number;
  backoff?: BackoffPolicy;
  /** How the whole run slows down when Meta rate-limits it (see ThrottlePolicy). */
  throttle?: ThrottlePolicy;
  /** Wait between passes while other workers hold the last batches. */
  pollMs?: number;
  /**
   * How often this worker beats while on the run: the run's heartbeat (sweepers re-queue quiet runs) and the leases
   * of the batches it holds (SEND_HEARTBEAT_MS, a quarter of the lease unless given).
   */
  heartbeatMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onPoint?: (point: CrashPoint, batch: BatchRow) => void | Promise<void>;
}

/**
 * Rate limits (codes 4, 17, 32, 613, 80003/80004, HTTP 429) are about the pixel and token, not one batch: the first
 * such answer holds every worker of the run back until a run-level "not before" (`baseMs`, doubling with each new
 * wave of refusals, never shorter than Retry-After, at most `maxWaitMs`), and a refused attempt does not count
 * towards the batch's attempts. Once the run has been refused for `giveUpMs` without Meta accepting a batch, the
 * run stops waiting: a batch refused for its rate then fails at once with Meta's reason ('Meta asked us to slow
 * down').
 */
export interface ThrottlePolicy {
  baseMs: number;
  maxWaitMs: number;
  giveUpMs: number;
}

// An hour: Graph's app and user limits are counted over a rolling hour, so a throttle that outlasts it is not
// going to lift while the user watches. ~16 waves of requests in that hour (10 s, 20 s … then every 5 minutes).
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  baseMs: 10_000,
  maxWaitMs: MAX_RETRY_AFTER_MS,
  giveUpMs: 60 * 60_000,
};

/**
 * A failure that another attempt cannot fix (the file no longer matches its batches, the pipeline refuses the
 * file): the run is stopped with reason 'internal' and this plain message instead of being retried.
 */
export class RunFailure extends Error {
  override name = 'RunFailure';
}
