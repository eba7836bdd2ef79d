import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../deps.ts';
import { dispatchDue } from '../modules/webhooks/webhook-dispatch.ts';

/** How often each worker looks for due webhook deliveries: a queued event leaves within about this long. */
export const WEBHOOK_TICK_MS = 3_000;

/**
 * Webhook deliveries are claimed from their table (FOR UPDATE SKIP LOCKED, under a lease) on a tick in every
 * worker, like sources: pg-boss would add a second copy of each outbox row. A tick still running is not started
 * again in the same worker.
 */
export function startWebhookDispatcher(boss: PgBoss, deps: ResolvedDeps): void {
  // Posting to receivers is background work: requests' statements go first (decision 0095).
  const background = { ...deps, db: deps.db.background() };
  let busy = false;
  const run = async () => {
    if (busy) return;
    busy = true;
    try {
      await dispatchDue(background);
    } catch (err) {
      console.error('webhook dispatcher tick failed', err);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void run(), WEBHOOK_TICK_MS);
  timer.unref();
  boss.once('stopped', () => clearInterval(timer));
  void run();
}
