import type { Db } from '../../db/db.ts';
import type { DeliverySource } from './delivery.engine.ts';
import { deliveryRepo, ledgerKey } from './delivery.repo.ts';

/** Larger files are counted by the plan only: a second read of them would slow the send itself down. */
export const PRECOUNT_MAX_ROWS = 200_000;
const CHUNK = 500;

/**
 * Counts the events a run will skip as already delivered, ahead of the engine's plan: the engine reads the file
 * only as fast as it sends, so its count arrives at the end, and the summary would show the skipped rows as
 * remaining until then. Runs beside the send; the plan's numbers (the same ones) win when they come first.
 */
export async function precountSkipped(db: Db, source: DeliverySource, runId: string): Promise<void> {
  const run = await deliveryRepo.getRun(db, runId);
  if (!run || run.status !== 'running' || run.planned || run.skipped_counted || !run.skip_delivered) return;
  if ((run.total_events ?? 0) > PRECOUNT_MAX_ROWS) return;
  // Nothing delivered live to this pixel before the run: nothing to skip, and the summary already says 0.
  if (!(await deliveryRepo.anyLiveDelivery(db, run.pixel_id, run.created_at))) return;
  let total = 0;
  let skipped = 0;
  let chunk: { name: string; id: string }[] = [];
  const flush = async () => {
    const { live } = await deliveryRepo.deliveredBefore(
      db,
      run.pixel_id,
      chunk.map((c) => c.id),
      run.created_at,
    );
    skipped += chunk.filter((c) => live.has(ledgerKey(c.name, c.id))).length;
    chunk = [];
  };
  for await (const { event } of source.events(run)) {
    total++;
    chunk.push({ name: event.event_name, id: event.event_id });
    if (chunk.length >= CHUNK) await flush();
  }
  if (chunk.length) await flush();
  await deliveryRepo.noteSkippedCount(db, runId, total - skipped, skipped);
}
