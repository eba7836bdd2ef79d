import { webcrypto } from 'node:crypto';
import { eventsJsonBytes, type EncodedEvent } from '@backsignal/core';
import { deliveryRepo, type BatchError, type BatchRow } from './delivery.repo.ts';
import type { RunContext } from './delivery.run-context.ts';

/**
 * A leaf's events and their JSON array as UTF-8: built once per leaf, then hashed and sent from the same bytes
 * (the join and the encoding of a 1,000-event batch were done twice, a tenth of the send's main-thread CPU).
 */
export interface Payload {
  events: EncodedEvent[];
  data: Uint8Array;
}
export const payloadOf = (events: EncodedEvent[]): Payload => ({
  events,
  data: eventsJsonBytes(events),
});

// The hash of the batch's JSON array: the same bytes as before events were written as text, so runs
// started by an earlier version still resume. WebCrypto digests on libuv's thread pool: ~5 ms of main-thread
// CPU a 1,000-event batch with createHash, which the API's event loop no longer pays (decision 0080).
export const hashData = async (data: Uint8Array): Promise<string> =>
  Buffer.from(await webcrypto.subtle.digest('SHA-256', data)).toString('hex');
export const hashEvents = (events: readonly EncodedEvent[]): Promise<string> =>
  hashData(eventsJsonBytes(events));

const sameError = (a: { error_code: number | null; error_subcode: number | null }, e: BatchError) =>
  a.error_code === e.code && a.error_subcode === e.subcode;
const isHalf = (leaf: BatchRow) => leaf.part.endsWith('0') || leaf.part.endsWith('1');
const errorKey = (e: { code: number | null; subcode: number | null }) => `${e.code}/${e.subcode}`;

async function childOf(leaf: BatchRow, events: EncodedEvent[], suffix: string, idx: number[]) {
  return {
    part: leaf.part + suffix,
    rowNumbers: idx.map((i) => leaf.row_numbers[i]!),
    payloadHash: await hashEvents(idx.map((i) => events[i]!)),
  };
}

export async function halves(leaf: BatchRow, events: EncodedEvent[]) {
  const all = leaf.row_numbers.map((_, i) => i);
  const mid = Math.ceil(all.length / 2);
  return Promise.all([
    childOf(leaf, events, '0', all.slice(0, mid)),
    childOf(leaf, events, '1', all.slice(mid)),
  ]);
}

/**
 * Splits batches Meta refused rows of, so the good rows still go (each child is new, never a resend), and
 * learns which errors reject a whole batch row by row, so later batches refused that way fail in 3 requests
 * instead of ~2N.
 */
export class Splitter {
  /** Errors seen to reject every event of a batch, one by one: from then on a batch refused so is failed whole. */
  private readonly wholeRejections = new Set<string>();
  /** Batches this worker halved for a rejection that named no row (see wholeRejections). */
  private readonly halved = new Set<number>();

  constructor(private readonly ctx: RunContext) {}

  /** Meta rejected the whole leaf: split it at the row it named, or in halves. */
  async refused(leaf: BatchRow, events: EncodedEvent[], badIndex: number | null, err: BatchError) {
    if (badIndex === null && (await this.wholeBatchRejection(leaf, err))) return;
    await this.isolate(leaf, events, badIndex, err);
  }

  private async isolate(leaf: BatchRow, events: EncodedEvent[], badIndex: number | null, err: BatchError) {
    const { db, token } = this.ctx;
    if (events.length === 1) {
      await deliveryRepo.commitFailed(db, leaf.id, token, err);
      return;
    }
    const all = leaf.row_numbers.map((_, i) => i);
    if (badIndex !== null && badIndex >= 0 && badIndex < events.length) {
      const children = [
        { ...(await childOf(leaf, events, 'x', [badIndex])), failed: err },
        await childOf(
          leaf,
          events,
          'r',
          all.filter((i) => i !== badIndex),
        ),
      ];
      await deliveryRepo.split(db, leaf, token, children);
      return;
    }
    // The parent keeps Meta's answer: its halves are compared with it (wholeBatchRejection).
    this.halved.add(leaf.idx);
    await deliveryRepo.split(db, leaf, token, await halves(leaf, events), err);
  }

  /**
   * A half rejected with the same code and subcode as its parent, naming no row. The first half waits (failed)
   * for its sibling; if the second half fails the same way too and this run has already seen that error reject
   * a whole batch row by row (every event too old, a bad test event code…), the parent is failed whole instead of
   * being halved down to single rows. Answers true when the leaf was settled here.
   */
  private async wholeBatchRejection(leaf: BatchRow, err: BatchError): Promise<boolean> {
    const { db, runId, token } = this.ctx;
    if (!isHalf(leaf)) return false;
    const parent = await deliveryRepo.findPart(db, runId, leaf.idx, leaf.part.slice(0, -1));
    if (!parent || parent.status !== 'split' || !sameError(parent, err)) return false;
    if (leaf.part.endsWith('0')) {
      await deliveryRepo.commitFailed(db, leaf.id, token, err);
      return true;
    }
    const first = await deliveryRepo.findPart(db, runId, leaf.idx, parent.part + '0');
    if (first?.status !== 'failed' || !sameError(first, err)) return false;
    // Both halves failing is no proof: one bad row in each half fails both. Until a whole batch of this run has
    // been halved down to single rows that all failed this way, keep halving (the held first half is split by
    // resolveFirstHalf), so no good row is failed with a bad one.
    if (!this.wholeRejections.has(errorKey(err))) return false;
    await deliveryRepo.failWhole(db, parent, leaf, token);
    return true;
  }

  /**
   * After a second half settled any other way: a first half still failed like the parent holds the bad rows,
   * so it is split now (from what we know, without sending it again).
   */
  async resolveFirstHalf(leaf: BatchRow, byRow: Map<number, EncodedEvent>): Promise<void> {
    const { db, runId } = this.ctx;
    if (!leaf.part.endsWith('1')) return;
    const second = await deliveryRepo.findPart(db, runId, leaf.idx, leaf.part);
    if (second?.status !== 'sent' && second?.status !== 'failed' && second?.status !== 'split') return;
    const parent = await deliveryRepo.findPart(db, runId, leaf.idx, leaf.part.slice(0, -1));
    const first = await deliveryRepo.findPart(db, runId, leaf.idx, leaf.part.slice(0, -1) + '0');
    if (!parent || parent.status !== 'split' || first?.status !== 'failed' || first.verdict !== 'bad_rows')
      return;
    if (
      first.event_count < 2 ||
      first.error_code !== parent.error_code ||
      first.error_subcode !== parent.error_subcode
    )
      return;
    const events = first.row_numbers.map((r) => byRow.get(r)!);
    await deliveryRepo.split(db, first, null, await halves(first, events));
  }

  /** A batch this worker halved is settled: if every row failed alone the same way, remember the error. */
  async settled(idx: number) {
    if (!this.halved.has(idx)) return;
    const every = await deliveryRepo.rejectedRowByRow(this.ctx.db, this.ctx.runId, idx);
    if (every) this.wholeRejections.add(errorKey(every));
  }
}
