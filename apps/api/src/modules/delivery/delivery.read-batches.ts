import { createBatcher, type Batch, type EncodedEvent } from '@backsignal/core';
import { ledgerKey } from './delivery.repo.ts';

/** Events looked up in the ledger at once: one query per this many events. */
const LOOKUP_CHUNK = 500;

export interface ReadBatchesOptions {
  events: AsyncIterable<{ rowNumber: number; event: EncodedEvent }>;
  /** Ledger keys (ledgerKey) of the given event ids the pixel already received live; null when nothing is skipped. */
  delivered: ((ids: string[]) => Promise<Set<string>>) | null;
  batchSize: number;
  /** Asked before each event: true ends the read early (the run stopped). */
  stopped: () => boolean;
  /** Hands a cut batch to the senders; may wait for a free slot. */
  push: (batch: Batch) => Promise<void>;
}

export interface ReadResult {
  /** Events read; with `skipped`, the run's plan, good only when `readToEnd`. */
  total: number;
  skipped: number;
  readToEnd: boolean;
}

/**
 * One read of a run's events: those the pixel already received are left out (one ledger lookup per 500), the
 * rest are cut into batches and pushed to the senders.
 */
export async function readBatches(o: ReadBatchesOptions): Promise<ReadResult> {
  const batcher = createBatcher({ maxEvents: o.batchSize });
  let total = 0;
  let skipped = 0;
  let chunk: { rowNumber: number; event: EncodedEvent }[] = [];
  const push = async (batch: Batch | null) => {
    if (batch) await o.push(batch);
  };
  const drain = async () => {
    const delivered = o.delivered ? await o.delivered(chunk.map((c) => c.event.event_id)) : null;
    for (const c of chunk) {
      total++;
      if (delivered?.has(ledgerKey(c.event.event_name, c.event.event_id))) skipped++;
      else await push(batcher.add(c.event, c.rowNumber));
    }
    chunk = [];
  };
  for await (const item of o.events) {
    if (o.stopped()) return { total, skipped, readToEnd: false };
    chunk.push(item);
    if (chunk.length >= LOOKUP_CHUNK) await drain();
  }
  // The last chunk is counted even if the run stopped meanwhile (a batch in flight refused the token): the file
  // was read, and its skip lookups are all that stand between a stopped run and honest counts.
  await drain();
  await push(batcher.flush());
  return { total, skipped, readToEnd: true };
}
