/**
 * How fast a crashed send is taken over (issue 21, decision 0030). A worker on a run beats every `heartbeatMs`:
 * the beat touches the run and renews the leases of the batches it holds. A dead worker's leases run out
 * `staleAfterMs` after its last beat, so a live worker of the same run claims them then; a run nobody beats
 * for `staleAfterMs` is re-queued by the next sweep, which every worker runs every `sweepEveryMs`, and picked up
 * within pg-boss's polling interval.
 */
export interface DeliveryTiming {
  heartbeatMs: number;
  staleAfterMs: number;
  sweepEveryMs: number;
}

export const DEFAULT_TIMING: DeliveryTiming = {
  heartbeatMs: 5_000,
  staleAfterMs: 20_000,
  sweepEveryMs: 5_000,
};

/** pg-boss fetches queued send-run jobs this often (`pollingIntervalSeconds`). */
export const QUEUE_POLL_MS = 1_000;

/** The product promise: a send whose worker died resumes within this long, on a live worker or on restart. */
export const TAKEOVER_PROMISE_MS = 30_000;

/**
 * The longest a run can wait after its worker died before another worker claims its batches: the last beat may
 * be just before the death, the lease or staleness then runs its full length, the next sweep may be a whole
 * interval away, and the queue is polled after that. A live worker of the same run polls for expired leases every
 * `pollMs` (no longer than a sweep interval), so it is never later than this.
 */
export function worstCaseTakeoverMs(t: DeliveryTiming, pollMs = QUEUE_POLL_MS): number {
  return t.staleAfterMs + t.sweepEveryMs + pollMs;
}

/** What is wrong with a timing, if anything: a lease must outlive a few missed beats, or live workers lose it. */
export function timingProblem(t: DeliveryTiming): string | null {
  if (t.heartbeatMs * 3 > t.staleAfterMs)
    return `SEND_STALE_AFTER_MS (${t.staleAfterMs}) must be at least three heartbeats (SEND_HEARTBEAT_MS ${t.heartbeatMs})`;
  return null;
}
