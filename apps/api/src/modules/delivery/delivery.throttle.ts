import type { ThrottlePolicy } from './delivery.engine-types.ts';

const ms = (d: Date | null) => (d ? new Date(d).getTime() : null);

/**
 * A run's rate-limit state as this worker last saw it (ms since the epoch): its own refused answers update it
 * at once, other workers' when the run is read again (`update`).
 */
export class RunThrottle {
  until: number | null = null;
  since: number | null = null;

  constructor(
    private readonly policy: ThrottlePolicy,
    row: { throttled_until: Date | null; throttled_since: Date | null },
  ) {
    this.update(row);
  }

  update(row: { throttled_until: Date | null; throttled_since: Date | null }) {
    this.until = ms(row.throttled_until);
    this.since = ms(row.throttled_since);
  }

  /** Refused for the whole give-up time without Meta accepting a batch: the run stops waiting. */
  givenUp(now: number): boolean {
    return this.since !== null && now - this.since >= this.policy.giveUpMs;
  }

  /** How long the run is still held back; 0 once it has been throttled past giveUpMs. */
  wait(now: number): number {
    if (this.until === null || this.until <= now || this.givenUp(now)) return 0;
    return this.until - now;
  }

  /** Meta accepted a batch: answers whether the run's stored throttle must be cleared too. */
  accepted(): boolean {
    if (this.since === null) return false;
    this.since = null;
    return true;
  }
}
