import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../deps.ts';
import { tick } from '../modules/sources/scheduler.ts';
import { engineOptions } from '../modules/delivery/delivery.options.ts';

/** How often each worker looks for due sources: the delay between a due time and its start stays under this. */
export const SCHEDULER_TICK_MS = 5_000;

/**
 * Sources run on their own claim (sources.next_run_at under FOR UPDATE SKIP LOCKED), not on pg-boss cron:
 * the due times live in one indexed column in the owner's zone, every worker ticks, and the claim decides.
 * A tick that is still running is not started again in the same worker.
 */
export function startSourceScheduler(boss: PgBoss, deps: ResolvedDeps): void {
  // Fetching, storing and sending a source's file is background work: requests' statements go first (decision 0095).
  const background = { ...deps, db: deps.db.background() };
  const runner = { ...background, engine: engineOptions(background) };
  let busy = false;
  const run = async () => {
    if (busy) return;
    busy = true;
    try {
      await tick(runner);
    } catch (err) {
      console.error('source scheduler tick failed', err);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void run(), SCHEDULER_TICK_MS);
  timer.unref();
  boss.once('stopped', () => clearInterval(timer));
  void run();
}
