import { randomUUID, webcrypto } from 'node:crypto';
import {
  backoffDelayMs,
  createBatcher,
  DEFAULT_BACKOFF,
  eventsJson,
  isThrottle,
  MAX_RETRY_AFTER_MS,
  type BackoffPolicy,
  type Outcome,
  type EncodedEvent,
} from '@backsignal/core';
import type { Db } from '../../db/db.ts';
import { postEvents } from '../../integrations/meta-graph/events-client.ts';
import { DEFAULT_TIMING } from './delivery.timing.ts';
import {
  deliveryRepo,
  ledgerKey,
  type BatchError,
  type BatchRow,
  type RunRow,
  type RunStatus,
  type StopReason,
} from './delivery.repo.ts';

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

const LEDGER_CHUNK = 500;
// The hash of the batch's JSON array: the same bytes as before events were written as text, so runs
// started by an earlier version still resume. WebCrypto digests on libuv's thread pool: ~5 ms of main-thread
// CPU a 1,000-event batch with createHash, which the API's event loop no longer pays (decision 0080).
const hashEvents = async (events: readonly EncodedEvent[]): Promise<string> =>
  Buffer.from(await webcrypto.subtle.digest('SHA-256', Buffer.from(eventsJson(events)))).toString('hex');
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function batchError(outcome: Extract<Outcome, { kind: 'error' }>, bodyText: string | null): BatchError {
  const e = outcome.error;
  return {
    verdict: outcome.verdict,
    code: e?.code ?? null,
    subcode: e?.subcode ?? null,
    title: e?.userTitle ?? null,
    message: e?.userMessage ?? e?.message ?? null,
    raw: bodyText ?? outcome.cause,
  };
}

/**
 * Sends one run to Meta. Safe to run in several processes at once and again after a crash: batches are
 * claimed one by one under a lease, and an outcome counts only once committed. Answers the final status,
 * or null if the run is not (or no longer) running.
 */
export async function runSend(opts: EngineOptions, runId: string): Promise<RunStatus | null> {
  const { db, source } = opts;
  const o = {
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
  const initial = await deliveryRepo.getRun(db, runId);
  if (!initial || initial.status !== 'running') return null;
  const run: RunRow = initial;
  let creds: Awaited<ReturnType<DeliverySource['credentials']>>;
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
  const token = randomUUID();
  let stopped = false;
  // The run's throttle as this worker last saw it (ms): its own answers update it at once, other workers' within a
  // second (stillRunning reads the run).
  const ms = (d: Date | null) => (d ? new Date(d).getTime() : null);
  const throttle = { until: ms(run.throttled_until), since: ms(run.throttled_since) };

  // Another worker may stop the run (token refused); looked up at most every second, not per request.
  let checkedAt = -Infinity;
  const stillRunning = async () => {
    if (stopped) return false;
    if (o.now() - checkedAt < 1000) return true;
    checkedAt = o.now();
    const r = await deliveryRepo.getRun(db, runId);
    if (r?.status !== 'running') stopped = true;
    else Object.assign(throttle, { until: ms(r.throttled_until), since: ms(r.throttled_since) });
    return !stopped;
  };

  /** How long the run is still held back; 0 once the run has been throttled past giveUpMs (it stops waiting). */
  const throttleWait = () => {
    const now = o.now();
    if (throttle.until === null || throttle.until <= now) return 0;
    if (throttle.since !== null && now - throttle.since >= o.throttle.giveUpMs) return 0;
    return throttle.until - now;
  };

  /**
   * Waits out the run's "not before" before a batch is claimed or sent. A held leaf's lease is extended over the
   * wait (another worker must not take it over); the run's heartbeat goes on meanwhile, so the sweeper leaves the
   * run alone. False when the lease was lost.
   */
  async function waitForRun(leaf: BatchRow | null): Promise<boolean> {
    for (;;) {
      if (!(await stillRunning())) return true;
      const wait = throttleWait();
      if (wait <= 0) return true;
      // The heartbeat renews the lease through the wait; a worker that dies waiting loses it within one lease.
      if (leaf && !(await deliveryRepo.extendLease(db, leaf.id, token, o.leaseMs))) return false;
      await o.sleep(wait);
    }
  }

  const stop = async (reason: StopReason, raw: string | null) => {
    stopped = true;
    await deliveryRepo.stopRun(db, runId, reason, raw);
    if (reason === 'token') await source.markReconnectNeeded(run);
  };

  async function sendLeaf(leaf: BatchRow, events: EncodedEvent[]): Promise<void> {
    let attempts = leaf.attempts;
    let last: { outcome: Extract<Outcome, { kind: 'error' }>; bodyText: string | null } | null = null;
    // The last refusal was a rate limit: the run-level wait replaces the batch's own backoff.
    let throttled = false;
    for (;;) {
      if (!(await stillRunning())) return deliveryRepo.release(db, leaf.id, token);
      if (attempts >= o.backoff.maxAttempts) {
        const err = last
          ? batchError(last.outcome, last.bodyText)
          : {
              verdict: 'retry',
              code: null,
              subcode: null,
              title: null,
              message: null,
              raw: 'attempts_exhausted',
            };
        await deliveryRepo.commitFailed(db, leaf.id, token, err);
        return;
      }
      if (!(await waitForRun(leaf))) return;
      if (stopped) return deliveryRepo.release(db, leaf.id, token);
      const delay =
        last && !throttled
          ? backoffDelayMs(attempts, last.outcome.retryAfterSeconds, o.random(), o.backoff)
          : 0;
      // The heartbeat renews the lease through the backoff and the request, so it need not cover them: a worker
      // killed mid-wait must not keep its batch for minutes (issue 21).
      if (!(await deliveryRepo.beginAttempt(db, leaf.id, token, o.leaseMs))) return;
      if (delay > 0) await o.sleep(delay);
      attempts++;
      await o.onPoint?.('before-send', leaf);
      const sent = o.now();
      const res = await postEvents({
        fetch: o.fetch,
        graphUrl: o.graphUrl,
        apiVersion: o.apiVersion,
        pixelId: creds!.pixelId,
        accessToken: creds!.accessToken,
        events,
        testEventCode: run.test_event_code,
        timeoutMs: o.timeoutMs,
        nowMs: o.now,
      });
      await o.onPoint?.('after-answer', leaf);
      const out = res.outcome;
      if (out.kind === 'ok') {
        await deliveryRepo.commitSent(
          db,
          { batchId: leaf.id, token, eventsReceived: out.eventsReceived, fbtraceId: out.fbtraceId },
          {
            userId: run.user_id,
            pixelId: run.pixel_id,
            runId,
            test: !!run.test_event_code,
            events: events.map((e) => ({ name: e.event_name, id: e.event_id })),
          },
        );
        await o.onPoint?.('after-commit', leaf);
        if (throttle.since !== null) {
          throttle.since = null;
          await deliveryRepo.clearThrottle(db, runId);
        }
        return;
      }
      const err = batchError(out, res.bodyText);
      if (isThrottle(out)) {
        const at = o.now();
        const t = await deliveryRepo.noteThrottle(db, runId, {
          sent: new Date(sent),
          at: new Date(at),
          retryAfterMs: Math.min(MAX_RETRY_AFTER_MS, (out.retryAfterSeconds ?? 0) * 1000),
          baseMs: o.throttle.baseMs,
          maxWaitMs: o.throttle.maxWaitMs,
        });
        Object.assign(throttle, { until: ms(t.throttled_until), since: ms(t.throttled_since) });
        if (at - throttle.since! >= o.throttle.giveUpMs) {
          // Refused for the whole give-up time: the batch fails with Meta's reason, as any batch out of attempts.
          await deliveryRepo.commitFailed(db, leaf.id, token, err);
          return;
        }
        await deliveryRepo.refundAttempt(db, leaf.id, token);
        attempts--;
        last = { outcome: out, bodyText: res.bodyText };
        throttled = true;
        continue;
      }
      throttled = false;
      switch (out.verdict) {
        case 'retry':
          last = { outcome: out, bodyText: res.bodyText };
          continue;
        case 'token':
        case 'permission':
        case 'pixel':
          await deliveryRepo.commitFailed(db, leaf.id, token, err);
          await stop(out.verdict, res.bodyText ?? out.cause);
          return;
        case 'endpoint':
          await deliveryRepo.commitFailed(db, leaf.id, token, err);
          await stop(
            'internal',
            `The Conversions API address answered with something that is not a Meta answer (${out.cause}), so Backsignal stopped instead of splitting the file into thousands of requests.`,
          );
          return;
        case 'bad_rows':
          if (out.badIndex === null && (await wholeBatchRejection(leaf, err))) return;
          await isolate(leaf, events, out.badIndex, err);
          return;
      }
    }
  }

  const sameError = (a: { error_code: number | null; error_subcode: number | null }, e: BatchError) =>
    a.error_code === e.code && a.error_subcode === e.subcode;
  const isHalf = (leaf: BatchRow) => leaf.part.endsWith('0') || leaf.part.endsWith('1');

  /**
   * A half rejected with the same code and subcode as its parent, naming no row. The first half waits (failed)
   * for its sibling; if the second half fails the same way too and this run has already seen that error reject
   * a whole batch row by row (every event too old, a bad test event code…), the parent is failed whole instead of
   * being halved down to single rows: 3 requests, not ~2N. Answers true when the leaf was settled here.
   */
  async function wholeBatchRejection(leaf: BatchRow, err: BatchError): Promise<boolean> {
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
    if (!wholeRejections.has(errorKey(err))) return false;
    await deliveryRepo.failWhole(db, parent, leaf, token);
    return true;
  }

  /** Errors seen to reject every event of a batch, one by one: from then on a batch refused so is failed whole. */
  const wholeRejections = new Set<string>();
  const errorKey = (e: { code: number | null; subcode: number | null }) => `${e.code}/${e.subcode}`;

  /**
   * After a second half settled any other way: a first half still failed like the parent holds the bad rows,
   * so it is split now (from what we know, without sending it again).
   */
  async function resolveFirstHalf(leaf: BatchRow, byRow: Map<number, EncodedEvent>): Promise<void> {
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

  async function halves(leaf: BatchRow, events: EncodedEvent[]) {
    const all = leaf.row_numbers.map((_, i) => i);
    const mid = Math.ceil(all.length / 2);
    return Promise.all([
      childOf(leaf, events, '0', all.slice(0, mid)),
      childOf(leaf, events, '1', all.slice(mid)),
    ]);
  }

  async function childOf(leaf: BatchRow, events: EncodedEvent[], suffix: string, idx: number[]) {
    return {
      part: leaf.part + suffix,
      rowNumbers: idx.map((i) => leaf.row_numbers[i]!),
      payloadHash: await hashEvents(idx.map((i) => events[i]!)),
    };
  }

  /** Meta rejected the whole leaf: split it so the good rows still go (each child is new, never a resend). */
  async function isolate(
    leaf: BatchRow,
    events: EncodedEvent[],
    badIndex: number | null,
    err: BatchError,
  ): Promise<void> {
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
    halved.add(leaf.idx);
    await deliveryRepo.split(db, leaf, token, await halves(leaf, events), err);
  }

  /** Batches this worker halved for a rejection that named no row (see wholeRejections). */
  const halved = new Set<number>();

  /** Per pass: first halves a dead worker left held (see heldFirstHalves), by batch index. */
  let held = new Map<number, BatchRow[]>();

  async function processBatch(idx: number, events: EncodedEvent[], rowNumbers: number[]): Promise<void> {
    const payloadHash = await hashEvents(events);
    const stored = await deliveryRepo.ensureBatch(db, {
      runId,
      userId: run.user_id,
      idx,
      rowNumbers,
      payloadHash,
    });
    if (stored !== payloadHash) {
      throw new RunFailure(
        `The file no longer matches what this send started with (batch ${idx + 1} changed), so Backsignal stopped rather than send different data.`,
      );
    }
    const byRow = new Map(rowNumbers.map((r, i) => [r, events[i]!]));
    for (const first of held.get(idx) ?? [])
      await deliveryRepo.split(
        db,
        first,
        null,
        await halves(
          first,
          first.row_numbers.map((r) => byRow.get(r)!),
        ),
      );
    for (;;) {
      // A throttled run claims nothing: a claimed batch would only hold its lease through the wait.
      await waitForRun(null);
      if (stopped) return;
      const leaf = await deliveryRepo.claim(db, runId, idx, token, o.leaseMs);
      if (!leaf) {
        if (halved.has(idx)) {
          const every = await deliveryRepo.rejectedRowByRow(db, runId, idx);
          if (every) wholeRejections.add(errorKey(every));
        }
        return;
      }
      await sendLeaf(
        leaf,
        leaf.row_numbers.map((r) => byRow.get(r)!),
      );
      if (!stopped) await resolveFirstHalf(leaf, byRow);
    }
  }

  /** One read of the whole file: every batch not yet settled is claimed and sent. */
  async function pass(): Promise<void> {
    held = new Map();
    for (const b of await deliveryRepo.heldFirstHalves(db, runId))
      held.set(b.idx, [...(held.get(b.idx) ?? []), b]);
    const batcher = createBatcher({ maxEvents: o.batchSize });
    const inflight = new Set<Promise<void>>();
    let failure: unknown = null;
    let total = 0;
    let skipped = 0;
    const launch = async (batch: { index: number; events: EncodedEvent[]; rowNumbers: number[] } | null) => {
      if (!batch) return;
      while (inflight.size >= o.concurrency) await Promise.race(inflight);
      const p: Promise<void> = processBatch(batch.index, batch.events, batch.rowNumbers)
        .catch((err: unknown) => {
          failure ??= err;
          stopped = true;
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    };
    let chunk: { rowNumber: number; event: EncodedEvent }[] = [];
    const drain = async () => {
      // Only live deliveries are skipped: an event sent as a test event still has to reach the live dataset.
      const delivered = run.skip_delivered
        ? (
            await deliveryRepo.deliveredBefore(
              db,
              run.user_id,
              run.pixel_id,
              chunk.map((c) => c.event.event_id),
              run.created_at,
            )
          ).live
        : new Set<string>();
      for (const c of chunk) {
        total++;
        if (delivered.has(ledgerKey(c.event.event_name, c.event.event_id))) {
          skipped++;
          continue;
        }
        await launch(batcher.add(c.event, c.rowNumber));
      }
      chunk = [];
    };
    let readToEnd = true;
    for await (const item of source.events(run)) {
      if (stopped) {
        readToEnd = false;
        break;
      }
      chunk.push(item);
      if (chunk.length >= LEDGER_CHUNK) await drain();
    }
    // The last chunk is counted even if the run stopped meanwhile (a batch in flight refused the token): the file
    // was read, and its skip lookups are all that stand between a stopped run and honest counts.
    if (readToEnd) {
      await drain();
      await launch(batcher.flush());
    }
    await Promise.all(inflight);
    if (failure) throw failure;
    // Every event was counted, so the plan holds for a stopped run too: /summary says from it what was not sent
    // and what was skipped.
    if (readToEnd) await deliveryRepo.finishPlan(db, runId, total - skipped, skipped);
  }

  async function sendAll(): Promise<RunStatus | null> {
    for (;;) {
      await pass();
      const finished = await deliveryRepo.tryFinish(db, runId);
      if (finished) return finished;
      if (!(await stillRunning())) return (await deliveryRepo.getRun(db, runId))?.status ?? null;
      // Another worker holds the last batches: wait for them to settle or for their lease to run out. A held first
      // half keeps the run open too: if the worker that settled its second half dies before splitting it, the next
      // pass here splits it (nobody else would: this worker's heartbeat keeps the sweeper away).
      while (!(await deliveryRepo.hasWork(db, runId))) {
        const done = await deliveryRepo.tryFinish(db, runId);
        if (done) return done;
        if (!(await stillRunning())) return (await deliveryRepo.getRun(db, runId))?.status ?? null;
        await o.sleep(o.pollMs);
      }
    }
  }

  const beat = setInterval(
    () => void deliveryRepo.heartbeat(db, runId, token, o.leaseMs).catch(() => {}),
    o.heartbeatMs ?? Math.max(1, Math.floor(o.leaseMs / 4)),
  );
  beat.unref?.();
  try {
    return await sendAll();
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    stopped = true;
    await deliveryRepo.stopRun(db, runId, 'internal', err.message);
    return (await deliveryRepo.getRun(db, runId))?.status ?? null;
  } finally {
    clearInterval(beat);
  }
}
