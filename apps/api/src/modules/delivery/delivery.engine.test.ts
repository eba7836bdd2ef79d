import { explainMetaError } from '@backsignal/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { handleSendRunJob, INTERNAL_STOP } from '../../jobs/send-run.job.ts';
import { RunFailure, runSend, type EngineOptions } from './delivery.engine.ts';
import { deliveryRepo } from './delivery.repo.ts';
import { fakeSource, makeEvents, seedUploadAndAccount } from './delivery.test-helpers.ts';

let ctx: TestContext;
let graph: FakeGraph;
let userId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ userId } = await loggedInAgent(ctx.app, ctx.db));
  graph = await startFakeGraph({ tokens: ['good-token'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => {
  graph.reset();
  graph.setDelay(0);
  graph.setGate(0);
});

/** Meta's answer to a batch with an event past its time window, naming no row. */
const TOO_OLD = {
  kind: 'graph' as const,
  code: 100,
  subcode: 2804003,
  title: 'Event Timestamp Too Old',
  message: 'Invalid parameter',
};
// 8 events refused, then their first half: the second half goes through, and the held first half is split into
// quarters without being sent again unchanged.
const FIRST_HALF_SPLIT = [
  [8, 'fault'],
  [4, 'fault'],
  [4, 'accepted'],
  [2, 'accepted'],
  [2, 'accepted'],
];

async function newRun(opts: { testEventCode?: string; skipDelivered?: boolean; pixelId?: string } = {}) {
  const { uploadId, accountId } = await seedUploadAndAccount(ctx.db, userId, { pixelId: opts.pixelId });
  return deliveryRepo.createRun(ctx.db, {
    workspaceId: userId,
    uploadId,
    accountId,
    pixelId: opts.pixelId ?? '123456789',
    accountName: 'Main pixel',
    testEventCode: opts.testEventCode ?? null,
    skipDelivered: opts.skipDelivered ?? true,
  });
}

function engine(source: EngineOptions['source'], extra: Partial<EngineOptions> = {}) {
  const sleeps: number[] = [];
  const opts: EngineOptions = {
    db: ctx.db,
    source,
    fetch,
    graphUrl: graph.url,
    apiVersion: 'v25.0',
    batchSize: 100,
    concurrency: 2,
    // Long enough for a cold first request on two shared cores (a timeout would resend the batch).
    timeoutMs: 1500,
    leaseMs: 60_000,
    pollMs: 10,
    backoff: { maxAttempts: 8, baseMs: 10, capMs: 100 },
    sleep: async (ms) => {
      sleeps.push(ms);
      // Yield to timers and sockets: PGlite answers through microtasks, so a poll loop could starve the fake server.
      await new Promise((r) => setImmediate(r));
    },
    random: () => 0.5,
    ...extra,
  };
  return { opts, sleeps };
}

/** A wave's requests wait at the fake's gate for each other: on a busy machine that outlasted 1.5 s and resent. */
const GATED = { timeoutMs: 60_000 } satisfies Partial<EngineOptions>;

/**
 * A clock that moves only when the engine sleeps. Sleeps are released together once `sleepers` of them wait (the
 * run's workers, all held back by one rate limit), and the clock moves to the latest wake among them: concurrent
 * sleeps to the same moment do not add up, and no worker's next request can be stamped before the others have
 * handled their answers, however busy the machine. `sentAt` records the clock at each request, so the tests read
 * the spacing of requests without waiting for real.
 */
function fakeClock(sleepers = 1) {
  let t = Date.now();
  const start = t;
  const sentAt: number[] = [];
  const sleeps: number[] = [];
  let waiting: { wake: number; go: () => void }[] = [];
  return {
    sentAt: () => sentAt.map((x) => x - start),
    sleeps,
    opts: {
      now: () => t,
      sleep: (ms: number) =>
        new Promise<void>((go) => {
          sleeps.push(ms);
          waiting.push({ wake: t + ms, go });
          if (waiting.length < sleepers) return;
          const wave = waiting;
          waiting = [];
          t = Math.max(t, ...wave.map((w) => w.wake));
          for (const w of wave) w.go();
        }),
      fetch: ((url, init) => {
        sentAt.push(t);
        return fetch(url, init);
      }) as typeof fetch,
      throttle: { baseMs: 1000, maxWaitMs: 8000, giveUpMs: 10 * 60_000 },
    } satisfies Partial<EngineOptions>,
  };
}

describe('delivery engine', () => {
  it('sends every event once, in batches, with test code, partner agent and bearer token', async () => {
    const run = await newRun({ testEventCode: 'TEST123' });
    const { opts } = engine(fakeSource(makeEvents(250)));
    expect(await runSend(opts, run.id)).toBe('completed');
    expect(graph.requests.map((r) => r.events.length).sort()).toEqual([100, 100, 50]);
    expect(
      graph.requests.every((r) => r.testEventCode === 'TEST123' && r.partnerAgent === 'backsignal'),
    ).toBe(true);
    expect(graph.deliveredCount.size).toBe(250);
    const totals = await deliveryRepo.totals(ctx.db, run.id);
    expect(totals).toMatchObject({ batches_sent: 3, batches_failed: 0, events_sent: 250, events_open: 0 });
    const done = await deliveryRepo.getRun(ctx.db, run.id);
    expect(done).toMatchObject({ status: 'completed', planned: true, total_events: 250 });
    expect(done!.heartbeat_at).not.toBeNull();
    const ledger = await ctx.db.query<{ n: number; t: boolean }>(
      'select count(*)::int as n, bool_and(test) as t from delivery_ledger where run_id = $1',
      [run.id],
    );
    expect(ledger.rows[0]).toEqual({ n: 250, t: true });
  });

  it('completes a batch holding duplicate rows of the file (the same event_id twice)', async () => {
    const run = await newRun();
    const events = makeEvents(3);
    events.push({ rowNumber: 5, event: { ...events[0]!.event } });
    const { opts } = engine(fakeSource(events));
    expect(await runSend(opts, run.id)).toBe('completed');
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({
      batches_sent: 1,
      batches_failed: 0,
      events_sent: 4,
    });
    const ledger = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from delivery_ledger where run_id = $1',
      [run.id],
    );
    expect(ledger.rows[0]!.n).toBe(3);
  });

  it('retries 5xx, timeouts, dropped connections and rate limits, honouring Retry-After', async () => {
    const run = await newRun();
    graph.inject(
      { kind: 'status', status: 500 },
      { kind: 'timeout' },
      { kind: 'drop' },
      { kind: 'graph', code: 4, retryAfter: '2' },
      { kind: 'graph', code: 17, status: 400 },
      { kind: 'graph', code: 613 },
    );
    const clock = fakeClock();
    const { opts } = engine(fakeSource(makeEvents(50)), { concurrency: 1, ...clock.opts });
    expect(await runSend(opts, run.id)).toBe('completed');
    const [batch] = await deliveryRepo.leaves(ctx.db, run.id);
    // Rate limits hold the run back instead of using up the batch's attempts.
    expect(batch).toMatchObject({ status: 'sent', attempts: 4, events_received: 50 });
    expect(graph.requests).toHaveLength(7);
    // Full jitter (random 0.5) on base 10 ms doubling, capped at 100 ms; then the run-level wait: Retry-After 2 s
    // wins over the first 1 s, then 2 s and 4 s as the refusals go on.
    expect(clock.sleeps).toEqual([5, 10, 20, 2000, 2000, 4000]);
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({
      throttled_since: null,
      throttle_count: 0,
    });
  });

  it('slows the whole run down on a rate limit: batches in flight wait together and none fails', async () => {
    const run = await newRun();
    // 10 waves of 4 requests refused with code 17 (each batch 10 times, past its 8 attempts), the first asking for 3 s.
    graph.inject(
      { kind: 'graph', code: 17, retryAfter: '3' },
      ...Array.from({ length: 39 }, () => ({ kind: 'graph' as const, code: 17 })),
    );
    // Each wave's 4 requests are all on the wire before the first answer comes back, however busy the machine.
    graph.setGate(4);
    const clock = fakeClock(4);
    const { opts } = engine(fakeSource(makeEvents(400)), { concurrency: 4, ...clock.opts, ...GATED });
    expect(await runSend(opts, run.id)).toBe('completed');
    expect(graph.deliveredCount.size).toBe(400);
    expect(graph.requests).toHaveLength(44);
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.map((l) => [l.status, l.attempts])).toEqual(Array.from({ length: 4 }, () => ['sent', 1]));
    // All 4 batches go in waves spaced by the run's wait: Retry-After 3 s first, then doubling from 2 s up to the
    // 8 s cap; 10 waves refused, the 11th accepted. No batch retried on its own backoff (5–100 ms here): every
    // sleep is the run's.
    const waves = [0, 3000, 5000, 9000, 17_000, 25_000, 33_000, 41_000, 49_000, 57_000, 65_000];
    expect(clock.sentAt()).toEqual(waves.flatMap((t) => [t, t, t, t]));
    expect(clock.sleeps.every((ms) => ms >= 1000)).toBe(true);
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({
      status: 'completed',
      throttled_since: null,
      throttle_count: 0,
    });
  });

  it("fails the batches with Meta's reason once the run has been throttled past the give-up time", async () => {
    const run = await newRun();
    graph.inject(...Array.from({ length: 200 }, () => ({ kind: 'graph' as const, code: 4 })));
    graph.setGate(4);
    const clock = fakeClock(4);
    const { opts } = engine(fakeSource(makeEvents(800)), {
      concurrency: 4,
      ...clock.opts,
      ...GATED,
      throttle: { baseMs: 1000, maxWaitMs: 8000, giveUpMs: 20_000 },
    });
    expect(await runSend(opts, run.id)).toBe('completed_with_errors');
    // The 4 batches in flight are refused at 0, 1, 3, 7 and 15 s and fail on the first refusal past the 20 s
    // give-up (23 s); the 4 after them no longer wait and fail on their one refusal: 28 requests, not 8 × 8.
    const waves = [0, 1000, 3000, 7000, 15_000, 23_000, 23_000];
    expect(clock.sentAt()).toEqual(waves.flatMap((t) => [t, t, t, t]));
    expect(clock.sleeps.every((ms) => ms >= 1000)).toBe(true);
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves).toHaveLength(8);
    for (const l of leaves) {
      expect(l).toMatchObject({ status: 'failed', attempts: 1, verdict: 'retry', error_code: 4 });
      expect(explainMetaError(l.error_raw, 'retry').title).toBe('Meta asked us to slow down');
    }
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ events_sent: 0, events_failed: 800 });
  });

  it('counts the first attempt of a batch it records with the record: no statement of its own', async () => {
    const run = await newRun();
    const begun = vi.spyOn(deliveryRepo, 'beginAttempt');
    graph.inject({ kind: 'status', status: 500 });
    const { opts } = engine(fakeSource(makeEvents(250)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed');
    // 3 batches: one retried once (its second attempt is begun), none begun for the first.
    expect(begun).toHaveBeenCalledTimes(1);
    begun.mockRestore();
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.map((l) => [l.status, l.attempts])).toEqual([
      ['sent', 2],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('uncounts the first attempt of a batch given back before it was sent', async () => {
    const run = await newRun();
    // The run's status is looked at once a second: the clock moves past that as the first batch is recorded, and
    // its owner stops the run right then, before the batch's request.
    let t = Date.now();
    const record = deliveryRepo.ensureBatch.bind(deliveryRepo);
    const recorded = vi.spyOn(deliveryRepo, 'ensureBatch').mockImplementation(async (db, b) => {
      const out = await record(db, b);
      await ctx.db.query(`update send_runs set status = 'stopped' where id = $1`, [run.id]);
      t += 5_000;
      return out;
    });
    await runSend(engine(fakeSource(makeEvents(50)), { concurrency: 1, now: () => t }).opts, run.id);
    recorded.mockRestore();
    expect(graph.requests).toHaveLength(0);
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.map((l) => [l.status, l.attempts])).toEqual([['pending', 0]]);
  });

  it('fails a batch after 8 attempts with the last reason and goes on with the rest', async () => {
    const run = await newRun();
    graph.inject(
      ...Array.from({ length: 8 }, () => ({
        kind: 'graph' as const,
        code: 2,
        status: 503,
        message: 'Service temporarily unavailable',
      })),
    );
    const { opts } = engine(fakeSource(makeEvents(150)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed_with_errors');
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.map((l) => [l.status, l.attempts])).toEqual([
      ['failed', 8],
      ['sent', 1],
    ]);
    expect(leaves[0]).toMatchObject({
      verdict: 'retry',
      error_code: 2,
      error_message: 'Service temporarily unavailable',
    });
  });

  it('stops on an expired token and asks for a reconnect', async () => {
    const run = await newRun();
    const source = fakeSource(makeEvents(500), { accessToken: 'expired' });
    const { opts } = engine(source, { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('stopped');
    expect(graph.requests).toHaveLength(1);
    expect(source.reconnect).toEqual([run.pixel_account_id]);
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'token',
    });
    const totals = await deliveryRepo.totals(ctx.db, run.id);
    expect(totals).toMatchObject({ batches_failed: 1, events_failed: 100, events_sent: 0 });
  });

  it.each([
    [{ kind: 'graph' as const, code: 10, status: 403 }, 'permission'],
    [{ kind: 'graph' as const, code: 200, status: 403 }, 'permission'],
    [{ kind: 'graph' as const, code: 100, subcode: 33 }, 'pixel'],
  ])('stops on %o as a %s problem without retrying', async (fault, reason) => {
    const run = await newRun();
    graph.inject(fault);
    const { opts } = engine(fakeSource(makeEvents(300)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('stopped');
    expect(graph.requests).toHaveLength(1);
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({ stop_reason: reason });
  });

  it('isolates a row Meta names and delivers the rest of its batch', async () => {
    const run = await newRun();
    const { opts } = engine(fakeSource(makeEvents(200, { poisonRows: [40] })), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed_with_errors');
    // Batch 0 once whole (rejected naming row 40), then once without it; batch 1 once.
    expect(graph.requests.map((r) => [r.events.length, r.outcome])).toEqual([
      [100, 'rejected'],
      [99, 'accepted'],
      [100, 'accepted'],
    ]);
    const failed = (await deliveryRepo.leaves(ctx.db, run.id)).filter((l) => l.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ row_numbers: [40], error_code: 100, error_title: 'Invalid parameter' });
    expect(graph.deliveredCount.size).toBe(199);
  });

  it('halves a batch rejected without a row index until the bad row is alone', async () => {
    const run = await newRun();
    graph.inject({ kind: 'graph', code: 100, message: 'Invalid parameter' });
    const { opts } = engine(fakeSource(makeEvents(8)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed');
    expect(graph.requests.map((r) => r.events.length)).toEqual([8, 4, 4]);
    // No batch went out twice unchanged.
    const bodies = graph.requests.map((r) => r.events.map((e) => e.event_id).join());
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('keeps halving when both halves fail, so one bad row in each half fails alone', async () => {
    const run = await newRun();
    // Rows 3 and 7 make Meta refuse any batch holding them, naming neither.
    const { opts } = engine(fakeSource(makeEvents(8, { unnamedPoisonRows: [3, 7] })), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed_with_errors');
    const failed = (await deliveryRepo.leaves(ctx.db, run.id)).filter((l) => l.status === 'failed');
    expect(failed.map((l) => l.row_numbers)).toEqual([[3], [7]]);
    expect(graph.deliveredCount.size).toBe(6);
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ events_failed: 2, events_sent: 6 });
    const bodies = graph.requests.map((r) => r.events.map((e) => e.event_id).join());
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('fails later batches whole in 3 requests once a batch was refused row by row for the same reason', async () => {
    const run = await newRun();
    graph.inject(...Array.from({ length: 40 }, () => TOO_OLD));
    const { opts } = engine(fakeSource(makeEvents(24)), { concurrency: 1, batchSize: 8 });
    expect(await runSend(opts, run.id)).toBe('completed_with_errors');
    // The first batch is halved down to its 8 rows (15 requests); the next two fail whole (3 each).
    expect(graph.requests).toHaveLength(15 + 3 + 3);
    expect(graph.requests.slice(15).map((r) => r.events.length)).toEqual([8, 4, 4, 8, 4, 4]);
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.map((l) => [l.idx, l.event_count])).toEqual([
      ...Array.from({ length: 8 }, () => [0, 1]),
      [1, 8],
      [2, 8],
    ]);
    expect(leaves.at(-1)).toMatchObject({
      part: '',
      status: 'failed',
      error_code: 100,
      error_subcode: 2804003,
      first_row: 18,
      last_row: 25,
    });
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ events_failed: 24, events_sent: 0 });
  });

  it('keeps halving the half that fails like its parent when the other half goes through', async () => {
    const run = await newRun();
    const invalid = { kind: 'graph' as const, code: 100, message: 'Invalid parameter' };
    // The batch and its first half are refused; the second half and the quarters go through.
    graph.inject(invalid, invalid);
    const { opts } = engine(fakeSource(makeEvents(8)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('completed');
    // The first half is split without being sent again unchanged.
    expect(graph.requests.map((r) => [r.events.length, r.outcome])).toEqual(FIRST_HALF_SPLIT);
    expect(graph.deliveredCount.size).toBe(8);
  });

  it('splits a held first half on resume when the worker died right after its second half went through', async () => {
    const run = await newRun();
    const invalid = { kind: 'graph' as const, code: 100, message: 'Invalid parameter' };
    graph.inject(invalid, invalid);
    const events = makeEvents(8);
    const crashing = engine(fakeSource(events), {
      concurrency: 1,
      onPoint: (point, batch) => {
        if (point === 'after-commit' && batch.part === '1') throw new Error('simulated crash');
      },
    });
    await expect(runSend(crashing.opts, run.id)).rejects.toThrow('simulated crash');
    expect(await runSend(engine(fakeSource(events), { concurrency: 1 }).opts, run.id)).toBe('completed');
    expect(graph.requests.map((r) => [r.events.length, r.outcome])).toEqual(FIRST_HALF_SPLIT);
    expect(graph.deliveredCount.size).toBe(8);
  });

  it('does not finish while a first half is held: a waiting worker splits it when the one that sent its second half died', async () => {
    const run = await newRun();
    const invalid = { kind: 'graph' as const, code: 100, message: 'Invalid parameter' };
    // The batch and its first half are refused naming no row; the second half and the quarters go through.
    graph.inject(invalid, invalid);
    const events = makeEvents(8);
    let bWaits!: () => void;
    const bWaiting = new Promise<void>((r) => (bWaits = r));
    let aDies!: () => void;
    const aDead = new Promise<void>((r) => (aDies = r));
    // Worker B only sleeps in its wait loop (no request here is retried): the first time it does, it has found
    // nothing to take (A holds the batch), and it waits there until A is dead.
    const b = engine(fakeSource(events), {
      concurrency: 1,
      sleep: async () => {
        bWaits();
        await aDead;
        await new Promise((r) => setImmediate(r));
      },
    });
    let bRun: Promise<unknown> | null = null;
    const a = engine(fakeSource(events), {
      concurrency: 1,
      onPoint: async (point, batch) => {
        if (point === 'before-send' && batch.part === '' && !bRun) {
          bRun = runSend(b.opts, run.id);
          await bWaiting;
        }
        // A dies after committing the second half, before splitting the held first half.
        if (point === 'after-commit' && batch.part === '1') throw new Error('simulated crash');
      },
    });
    await expect(runSend(a.opts, run.id)).rejects.toThrow('simulated crash');
    expect((await deliveryRepo.findPart(ctx.db, run.id, 0, '0'))?.status).toBe('failed');
    aDies();
    expect(await bRun).toBe('completed');
    // B split the held half without sending it again unchanged; only the bad request's rows were ever refused.
    expect(graph.requests.map((r) => [r.events.length, r.outcome])).toEqual(FIRST_HALF_SPLIT);
    expect(graph.deliveredCount.size).toBe(8);
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ events_sent: 8, events_failed: 0 });
  });

  it('never splits again a first half that was failed whole, when a later pass finds it', async () => {
    const run = await newRun();
    // Rows 2–7 are too old: any request carrying one of them is refused, naming no row. Batch 0 (rows 2–5) is
    // halved down to its rows, so the worker learns this error rejects whole batches. Batch 1 (rows 6–9) is
    // refused, its first half too (held), its second half goes through, and the held half's own halves are both
    // refused: the first half '0' is failed whole, although it is a first half refused like its parent.
    const refuseOld = (point: string, leaf: { row_numbers: number[] }) => {
      if (point === 'before-send' && leaf.row_numbers.some((r) => r <= 7)) graph.inject(TOO_OLD);
    };
    const events = makeEvents(12);
    const first = engine(fakeSource(events), {
      concurrency: 1,
      batchSize: 4,
      onPoint: (point, leaf) => {
        // The worker dies on batch 2, leaving the run running for another pass.
        if (point === 'before-send' && leaf.idx === 2) throw new Error('simulated crash');
        refuseOld(point, leaf);
      },
    });
    await expect(runSend(first.opts, run.id)).rejects.toThrow('simulated crash');
    const batch1 = (await deliveryRepo.leaves(ctx.db, run.id)).filter((l) => l.idx === 1);
    expect(batch1.map((l) => [l.part, l.status, l.event_count])).toEqual([
      ['0', 'failed', 2],
      ['1', 'sent', 2],
    ]);
    expect(graph.requests).toHaveLength(7 + 5);
    // The dead worker's lease on batch 2 runs out.
    await ctx.db.query(
      `update send_batches set lease_until = now() - interval '1 second' where run_id = $1 and status = 'sending'`,
      [run.id],
    );
    const second = engine(fakeSource(events), { concurrency: 1, batchSize: 4, onPoint: refuseOld });
    expect(await runSend(second.opts, run.id)).toBe('completed_with_errors');
    // Only batch 2 went out again; no rejected batch was sent a second time unchanged.
    expect(graph.requests.slice(12).map((r) => [r.events.length, r.outcome])).toEqual([[4, 'accepted']]);
    const bodies = graph.requests.map((r) => r.events.map((e) => e.event_id).join());
    expect(new Set(bodies).size).toBe(bodies.length);
    const leaves = await deliveryRepo.leaves(ctx.db, run.id);
    expect(leaves.find((l) => l.idx === 1 && l.part === '0')).toMatchObject({
      status: 'failed',
      failed_whole: true,
      row_numbers: [6, 7],
    });
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ events_failed: 6, events_sent: 6 });
  });

  it('stops on an answer that is not from the Conversions API instead of splitting', async () => {
    const run = await newRun();
    graph.inject({ kind: 'status', status: 404, body: '<html>Not Found</html>' });
    const { opts } = engine(fakeSource(makeEvents(300)), { concurrency: 1 });
    expect(await runSend(opts, run.id)).toBe('stopped');
    expect(graph.requests).toHaveLength(1);
    const stoppedRun = await deliveryRepo.getRun(ctx.db, run.id);
    expect(stoppedRun).toMatchObject({ stop_reason: 'internal' });
    expect(stoppedRun!.stop_error).toMatch(/not a Meta answer \(http_404\)/);
  });

  it('skips events already delivered to the pixel unless asked to send anyway', async () => {
    const pixelId = '555000111';
    const events = makeEvents(120, { prefix: 'dup' });
    const lookups = vi.spyOn(deliveryRepo, 'deliveredBefore');
    const first = await newRun({ pixelId });
    expect(await runSend(engine(fakeSource(events)).opts, first.id)).toBe('completed');
    // The pixel had no live delivery before this run: nothing to look up.
    expect(lookups).not.toHaveBeenCalled();
    graph.reset();
    const second = await newRun({ pixelId });
    expect(await runSend(engine(fakeSource(events)).opts, second.id)).toBe('completed');
    expect(lookups).toHaveBeenCalled();
    lookups.mockRestore();
    expect(graph.requests).toHaveLength(0);
    expect(await deliveryRepo.getRun(ctx.db, second.id)).toMatchObject({
      skipped_events: 120,
      total_events: 0,
    });
    const third = await newRun({ pixelId, skipDelivered: false });
    expect(await runSend(engine(fakeSource(events)).opts, third.id)).toBe('completed');
    expect(graph.deliveredCount.size).toBe(120);
  });

  it('stops a run whose re-read batch no longer matches the stored one, with a plain internal reason', async () => {
    const run = await newRun();
    const events = makeEvents(150);
    await deliveryRepo.ensureBatch(ctx.db, {
      runId: run.id,
      workspaceId: userId,
      idx: 1,
      rowNumbers: [102],
      payloadHash: 'something-else',
      token: crypto.randomUUID(),
      leaseMs: 60_000,
    });
    expect(await runSend(engine(fakeSource(events), { concurrency: 1 }).opts, run.id)).toBe('stopped');
    const done = await deliveryRepo.getRun(ctx.db, run.id);
    expect(done).toMatchObject({ status: 'stopped', stop_reason: 'internal' });
    expect(done!.stop_error).toMatch(/no longer matches what this send started with/);
    expect(done!.finished_at).not.toBeNull();
  });

  it('stops with reason internal when the file cannot be read for sending', async () => {
    const run = await newRun();
    const source = fakeSource([]);
    source.events = async function* () {
      yield* makeEvents(3);
      throw new RunFailure('The file could not be read for sending: headers changed');
    };
    expect(await runSend(engine(source).opts, run.id)).toBe('stopped');
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({
      stop_reason: 'internal',
      stop_error: 'The file could not be read for sending: headers changed',
    });
  });

  it('lets pg-boss retry other errors and stops the run on the job’s last attempt', async () => {
    const run = await newRun();
    const source = fakeSource([]);
    source.events = async function* () {
      yield* makeEvents(3);
      throw new Error('connection terminated unexpectedly');
    };
    const quiet = { error: () => {} };
    const { opts } = engine(source);
    await expect(
      handleSendRunJob(opts, { data: { runId: run.id }, retryCount: 2, retryLimit: 5 }, quiet),
    ).rejects.toThrow('connection terminated');
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({ status: 'running' });
    expect(
      await handleSendRunJob(opts, { data: { runId: run.id }, retryCount: 5, retryLimit: 5 }, quiet),
    ).toBe('stopped');
    expect(await deliveryRepo.getRun(ctx.db, run.id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'internal',
      stop_error: INTERNAL_STOP,
    });
  });

  it('does not skip events sent only as test events, and a live send turns their ledger entry live', async () => {
    const pixelId = '555000222';
    const events = makeEvents(50, { prefix: 'tst' });
    const testRun = await newRun({ pixelId, testEventCode: 'TEST1' });
    expect(await runSend(engine(fakeSource(events)).opts, testRun.id)).toBe('completed');
    graph.reset();
    const live = await newRun({ pixelId });
    expect(await runSend(engine(fakeSource(events)).opts, live.id)).toBe('completed');
    expect(graph.deliveredCount.size).toBe(50);
    expect(await deliveryRepo.getRun(ctx.db, live.id)).toMatchObject({ skipped_events: 0, total_events: 50 });
    const ledger = await ctx.db.query<{ n: number; t: boolean; r: string }>(
      `select count(*)::int as n, bool_or(test) as t, min(run_id::text) as r from delivery_ledger where pixel_id = $1`,
      [pixelId],
    );
    expect(ledger.rows[0]).toEqual({ n: 50, t: false, r: live.id });
    graph.reset();
    const again = await newRun({ pixelId });
    expect(await runSend(engine(fakeSource(events)).opts, again.id)).toBe('completed');
    expect(graph.requests).toHaveLength(0);
    expect(await deliveryRepo.getRun(ctx.db, again.id)).toMatchObject({ skipped_events: 50 });
  });

  it('stops when the pixel account is gone', async () => {
    const run = await newRun();
    expect(await runSend(engine(fakeSource(makeEvents(3), { missingAccount: true })).opts, run.id)).toBe(
      'stopped',
    );
    expect(graph.requests).toHaveLength(0);
  });

  it('resumes after a crash between Meta’s answer and the commit, never resending a confirmed batch', async () => {
    const run = await newRun();
    const events = makeEvents(500, { prefix: 'ev' });
    let answers = 0;
    const crashing = engine(fakeSource(events), {
      concurrency: 1,
      leaseMs: 200,
      onPoint: (point) => {
        if (point === 'after-answer' && ++answers === 3) throw new Error('simulated crash');
      },
    });
    await expect(runSend(crashing.opts, run.id)).rejects.toThrow('simulated crash');
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({ batches_sent: 2 });
    const confirmed = new Set(
      (await deliveryRepo.leaves(ctx.db, run.id))
        .filter((l) => l.status === 'sent')
        .flatMap((l) => l.row_numbers.map((r) => `ev-${r}`)),
    );
    const before = graph.requests.length;
    // The crashed worker's lease runs out (it no longer beats): waited for, not slept for a fixed time.
    while (!(await deliveryRepo.hasWork(ctx.db, run.id))) await new Promise((r) => setTimeout(r, 20));
    expect(await runSend(engine(fakeSource(events), { leaseMs: 200 }).opts, run.id)).toBe('completed');
    const resent = graph.requests.slice(before).flatMap((r) => r.events.map((e) => e.event_id));
    expect(resent.filter((id) => confirmed.has(id))).toEqual([]);
    expect(graph.deliveredCount.size).toBe(500);
    // The batch answered but not committed went out twice (at-least-once); Meta dedups on event_id.
    expect([...graph.deliveredCount.values()].filter((n) => n > 1)).toHaveLength(100);
    expect(await deliveryRepo.totals(ctx.db, run.id)).toMatchObject({
      batches_sent: 5,
      events_sent: 500,
      events_open: 0,
    });
  });

  it('lets two workers share one run with no batch sent twice', { timeout: 60_000 }, async () => {
    const run = await newRun();
    graph.setDelay(5);
    const events = makeEvents(2000);
    const [a, b] = await Promise.all([
      runSend(engine(fakeSource(events)).opts, run.id),
      runSend(engine(fakeSource(events)).opts, run.id),
    ]);
    graph.setDelay(0);
    expect([a, b]).toContain('completed');
    expect(graph.requests).toHaveLength(20);
    expect([...graph.deliveredCount.values()].every((n) => n === 1)).toBe(true);
    expect(graph.deliveredCount.size).toBe(2000);
  });
});
