import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { loggedInAgent } from '../../test/agent.ts';
import { deliveryRepo } from '../modules/delivery/delivery.repo.ts';
import { seedUploadAndAccount } from '../modules/delivery/delivery.test-helpers.ts';
import { startQueue } from './queue.ts';
import { enqueueRun, ensureSendRunQueue, STALE_AFTER_MS, sweepStaleRuns } from './send-run.job.ts';

let ctx: TestContext;
let boss: PgBoss;
let userId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ userId } = await loggedInAgent(ctx.app, ctx.db));
  // The real queue on the test database (embedded or PostgreSQL), without workers: jobs stay queued.
  boss = await startQueue(ctx.db, ctx.dbUrl);
  await ensureSendRunQueue(boss);
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true }).catch(() => {});
  await ctx.close();
});

async function newRun() {
  const { uploadId, accountId } = await seedUploadAndAccount(ctx.db, userId);
  return deliveryRepo.createRun(ctx.db, {
    workspaceId: userId,
    uploadId,
    accountId,
    pixelId: '123456789',
    accountName: 'Main',
    testEventCode: null,
    skipDelivered: true,
  });
}
const quietFor = (runId: string, ms: number) =>
  ctx.db.query(
    `update send_runs set created_at = now() - make_interval(secs => $2::double precision / 1000), heartbeat_at = null where id = $1`,
    [runId, ms],
  );
const queued = async (runId: string) =>
  (
    await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'send-run' and singleton_key = $1 and state = 'created'`,
      [runId],
    )
  ).rows[0]!.n;

describe('send-run sweeper', () => {
  it('re-queues only runs that went quiet, once, however many workers sweep', async () => {
    const crashed = await newRun();
    await quietFor(crashed.id, STALE_AFTER_MS + 60_000);
    const alive = await newRun();
    await quietFor(alive.id, STALE_AFTER_MS + 60_000);
    await deliveryRepo.heartbeat(ctx.db, alive.id, crypto.randomUUID(), 1000);
    const busy = await newRun();
    await quietFor(busy.id, STALE_AFTER_MS + 60_000);
    await deliveryRepo.ensureBatch(ctx.db, {
      runId: busy.id,
      workspaceId: userId,
      idx: 0,
      rowNumbers: [2],
      payloadHash: 'h',
      token: crypto.randomUUID(),
      leaseMs: 60_000,
    });
    const fresh = await newRun();

    // Three workers start (or tick) at once.
    const found = await Promise.all([
      sweepStaleRuns(boss, ctx.db),
      sweepStaleRuns(boss, ctx.db),
      sweepStaleRuns(boss, ctx.db),
    ]);
    expect(
      found.every(
        (ids) =>
          ids.includes(crashed.id) &&
          !ids.includes(alive.id) &&
          !ids.includes(busy.id) &&
          !ids.includes(fresh.id),
      ),
    ).toBe(true);
    expect(await queued(crashed.id)).toBe(1);
    expect(await queued(alive.id)).toBe(0);
    expect(await queued(busy.id)).toBe(0);
    expect(await queued(fresh.id)).toBe(0);
  });

  it('keeps one queued job per run when the send and a sweep both enqueue it', async () => {
    const run = await newRun();
    await enqueueRun(boss, run.id);
    await enqueueRun(boss, run.id);
    await quietFor(run.id, STALE_AFTER_MS + 60_000);
    await sweepStaleRuns(boss, ctx.db);
    expect(await queued(run.id)).toBe(1);
  });

  it('does not sweep finished runs', async () => {
    const run = await newRun();
    await quietFor(run.id, STALE_AFTER_MS + 60_000);
    await deliveryRepo.stopRun(ctx.db, run.id, 'internal', 'x');
    expect(await sweepStaleRuns(boss, ctx.db)).not.toContain(run.id);
  });
});
