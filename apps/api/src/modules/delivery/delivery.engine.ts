import { randomUUID } from 'node:crypto';
import type { Batch, EncodedEvent } from '@backsignal/core';
import { RunFailure, type EngineOptions } from './delivery.engine-types.ts';
import { readBatches } from './delivery.read-batches.ts';
import { deliveryRepo, type BatchRow, type RunStatus } from './delivery.repo.ts';
import { RunContext, withDefaults } from './delivery.run-context.ts';
import { sendBatch } from './delivery.send-batch.ts';
import { halves, hashData, payloadOf, Splitter } from './delivery.split.ts';

export * from './delivery.engine-types.ts';

/**
 * Sends one run to Meta. Safe to run in several processes at once and again after a crash: batches are
 * claimed one by one under a lease, and an outcome counts only once committed. Answers the final status,
 * or null if the run is not (or no longer) running.
 *
 * The parts: the run's shared state (RunContext, with its throttle), the read of the file ahead of the senders
 * (readBatches), one batch's attempts (sendBatch, with classifyAnswer), the isolation of refused rows (Splitter);
 * this file claims batches and passes over the file until every batch is settled.
 */
export async function runSend(opts: EngineOptions, runId: string): Promise<RunStatus | null> {
  const o = withDefaults(opts);
  const { db, source } = o;
  const run = await deliveryRepo.getRun(db, runId);
  if (!run || run.status !== 'running') return null;
  let creds: Awaited<ReturnType<typeof source.credentials>>;
  try {
    creds = await source.credentials(run);
  } catch (err) {
    // The stored token no longer decrypts: the account is marked "reconnect needed", the run stops on it.
    if (!(err instanceof RunFailure)) throw err;
    await deliveryRepo.stopRun(db, runId, 'pixel', err.message);
    return 'stopped';
  }
  if (!creds) {
    await deliveryRepo.stopRun(db, runId, 'pixel', 'The pixel account was deleted.');
    return 'stopped';
  }
  await deliveryRepo.markStarted(db, runId);
  const ctx = new RunContext(o, run, randomUUID(), creds);
  const beat = setInterval(
    () => void deliveryRepo.heartbeat(db, runId, ctx.token, o.leaseMs).catch(() => {}),
    o.heartbeatMs ?? Math.max(1, Math.floor(o.leaseMs / 4)),
  );
  beat.unref?.();
  try {
    return await sendAll(ctx, new Splitter(ctx));
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    ctx.stopped = true;
    await deliveryRepo.stopRun(db, runId, 'internal', err.message);
    return (await deliveryRepo.getRun(db, runId))?.status ?? null;
  } finally {
    clearInterval(beat);
  }
}

async function sendAll(ctx: RunContext, splitter: Splitter): Promise<RunStatus | null> {
  const { db, runId } = ctx;
  const status = async () => (await deliveryRepo.getRun(db, runId))?.status ?? null;
  for (;;) {
    await pass(ctx, splitter);
    const finished = await deliveryRepo.tryFinish(db, runId);
    if (finished) return finished;
    if (!(await ctx.stillRunning())) return status();
    // Another worker holds the last batches: wait for them to settle or for their lease to run out. A held first
    // half keeps the run open too: if the worker that settled its second half dies before splitting it, the next
    // pass here splits it (nobody else would: this worker's heartbeat keeps the sweeper away).
    while (!(await deliveryRepo.hasWork(db, runId))) {
      const done = await deliveryRepo.tryFinish(db, runId);
      if (done) return done;
      if (!(await ctx.stillRunning())) return status();
      await ctx.o.sleep(ctx.o.pollMs);
    }
  }
}

/** One read of the whole file: every batch not yet settled is claimed and sent, `concurrency` at a time. */
async function pass(ctx: RunContext, splitter: Splitter): Promise<void> {
  const { db, run, o } = ctx;
  // First halves a dead worker left held, by batch index: split when their batch comes by.
  const held = new Map<number, BatchRow[]>();
  for (const b of await deliveryRepo.heldFirstHalves(db, run.id))
    held.set(b.idx, [...(held.get(b.idx) ?? []), b]);
  const inflight = new Set<Promise<void>>();
  let failure: unknown = null;
  // The reader waits while `concurrency` batches are in flight: memory stays at a few batches whatever the file.
  const launch = async (batch: Batch) => {
    while (inflight.size >= o.concurrency) await Promise.race(inflight);
    const p: Promise<void> = processBatch(ctx, splitter, batch, held.get(batch.index) ?? [])
      .catch((err: unknown) => {
        failure ??= err;
        ctx.stopped = true;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };
  // Only live deliveries before the run are skipped (an event sent as a test event still has to reach the live
  // dataset). A pixel with none has nothing to skip: its send, the first to a pixel, makes no lookup at all.
  const skips = run.skip_delivered && (await deliveryRepo.anyLiveDelivery(db, run.pixel_id, run.created_at));
  const reading = readBatches({
    events: ctx.source.events(run),
    delivered: skips
      ? async (ids) => (await deliveryRepo.deliveredBefore(db, run.pixel_id, ids, run.created_at)).live
      : null,
    batchSize: o.batchSize,
    stopped: () => ctx.stopped,
    push: launch,
  });
  // A failed read (the pipeline refused the file) stops this worker's batches in flight before it is thrown.
  const read = await reading.catch(async (err: unknown) => {
    ctx.stopped = true;
    await Promise.all(inflight);
    throw err;
  });
  await Promise.all(inflight);
  if (failure) throw failure;
  // Every event was counted, so the plan holds for a stopped run too: /summary says from it what was not sent
  // and what was skipped.
  if (read.readToEnd) await deliveryRepo.finishPlan(db, run.id, read.total - read.skipped, read.skipped);
}

/** Records a batch (or checks it against the one recorded), then claims and sends its leaves until none is left. */
async function processBatch(
  ctx: RunContext,
  splitter: Splitter,
  { index: idx, events, rowNumbers }: Batch,
  heldFirstHalves: BatchRow[],
): Promise<void> {
  const { db, run, token, o } = ctx;
  const whole = payloadOf(events);
  const payloadHash = await hashData(whole.data);
  const stored = await deliveryRepo.ensureBatch(db, {
    runId: run.id,
    workspaceId: run.workspace_id,
    idx,
    rowNumbers,
    payloadHash,
    token,
    leaseMs: o.leaseMs,
  });
  if (stored.payloadHash !== payloadHash) {
    throw new RunFailure(
      `The file no longer matches what this send started with (batch ${idx + 1} changed), so Backsignal stopped rather than send different data.`,
    );
  }
  const byRow = new Map<number, EncodedEvent>(rowNumbers.map((r, i) => [r, events[i]!]));
  const eventsOf = (leaf: BatchRow) => leaf.row_numbers.map((r) => byRow.get(r)!);
  for (const first of heldFirstHalves)
    await deliveryRepo.split(db, first, null, await halves(first, eventsOf(first)));
  // A batch this worker just recorded is already claimed (sendBatch waits out a throttled run for it).
  let leaf = stored.claimed;
  let recorded = !!leaf;
  for (;;) {
    if (!leaf) {
      // A throttled run claims nothing: a claimed batch would only hold its lease through the wait.
      await ctx.waitForRun(null);
      if (ctx.stopped) return;
      leaf = await deliveryRepo.claim(db, run.id, idx, token, o.leaseMs);
      if (!leaf) return splitter.settled(idx);
    }
    const payload = leaf.part === '' ? whole : payloadOf(eventsOf(leaf));
    const sent = await sendBatch(ctx, splitter, leaf, payload, recorded);
    recorded = false;
    // A whole batch Meta took leaves no other leaf to look for.
    if (sent && leaf.part === '') return;
    if (!ctx.stopped) await splitter.resolveFirstHalf(leaf, byRow);
    leaf = null;
  }
}
