import { DEFAULT_BACKOFF } from '@backsignal/core';
import { DEFAULT_TIMING } from './delivery.timing.ts';
import { DEFAULT_THROTTLE, type DeliverySource, type EngineOptions } from './delivery.engine-types.ts';
import { deliveryRepo, type BatchRow, type RunRow, type StopReason } from './delivery.repo.ts';
import { RunThrottle } from './delivery.throttle.ts';

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function withDefaults(opts: EngineOptions) {
  return {
    timeoutMs: 60_000,
    leaseMs: DEFAULT_TIMING.staleAfterMs,
    backoff: DEFAULT_BACKOFF,
    throttle: DEFAULT_THROTTLE,
    pollMs: 5_000,
    sleep: defaultSleep,
    random: Math.random,
    now: Date.now,
    ...opts,
  };
}
export type ResolvedOptions = ReturnType<typeof withDefaults>;

/**
 * What every part of one worker's send of one run shares: the run, this worker's lease token, the
 * credentials, whether the run is still going, and its throttle.
 */
export class RunContext {
  stopped = false;
  readonly throttle: RunThrottle;
  // Another worker may stop the run (token refused); looked up at most every second, not per request.
  private checkedAt = -Infinity;

  constructor(
    readonly o: ResolvedOptions,
    readonly run: RunRow,
    readonly token: string,
    readonly creds: { pixelId: string; accessToken: string },
  ) {
    this.throttle = new RunThrottle(o.throttle, run);
  }

  get db() {
    return this.o.db;
  }
  get runId() {
    return this.run.id;
  }
  get source(): DeliverySource {
    return this.o.source;
  }

  async stillRunning(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.o.now() - this.checkedAt < 1000) return true;
    this.checkedAt = this.o.now();
    const r = await deliveryRepo.getRun(this.db, this.runId);
    if (r?.status !== 'running') this.stopped = true;
    else this.throttle.update(r);
    return !this.stopped;
  }

  /**
   * Waits out the run's "not before" before a batch is claimed or sent. A held leaf's lease is extended over the
   * wait (another worker must not take it over); the run's heartbeat goes on meanwhile, so the sweeper leaves the
   * run alone. False when the lease was lost.
   */
  async waitForRun(leaf: BatchRow | null): Promise<boolean> {
    for (;;) {
      if (!(await this.stillRunning())) return true;
      const wait = this.throttle.wait(this.o.now());
      if (wait <= 0) return true;
      // The heartbeat renews the lease through the wait; a worker that dies waiting loses it within one lease.
      if (leaf && !(await deliveryRepo.extendLease(this.db, leaf.id, this.token, this.o.leaseMs)))
        return false;
      await this.o.sleep(wait);
    }
  }

  async stop(reason: StopReason, raw: string | null) {
    this.stopped = true;
    await deliveryRepo.stopRun(this.db, this.runId, reason, raw);
    if (reason === 'token') await this.source.markReconnectNeeded(this.run);
  }
}
