import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UploadJob } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { pipelinePools } from './pipeline-pool.ts';
import { uploadJobsRepo } from './upload-jobs.repo.ts';
import { filesRepo } from './files.repo.ts';
import { fingerprint } from './pipeline.ts';
import type { JobDeps } from './upload-jobs.runner.ts';
import { sweepStaleJobs } from './upload-jobs.service.ts';

/**
 * Validation and prepare as background jobs (issue 22 item 8, docs/decisions/0091): a short POST starts one, a
 * short GET follows it to its result; the spec's GET routes wait for the same job.
 */
let ctx: TestContext;
let owner: Awaited<ReturnType<typeof loggedInAgent>>;
beforeAll(async () => {
  ctx = await createTestContext({ env: { QUOTA_ROWS_PER_DAY: '1000' } });
  owner = await loggedInAgent(ctx.app, ctx.db);
});
afterAll(() => ctx.close());

const HEADER = 'Email,Event,When,Source\r\n';
// An hour ago: inside Meta's window whenever the test runs.
const WHEN = new Date(Date.now() - 3600_000).toISOString().slice(0, 19) + 'Z';
const row = (i: number) => `p${i}@example.com,Lead,${WHEN},physical_store\r\n`;
const csv = (rows: number) => HEADER + Array.from({ length: rows }, (_, i) => row(i)).join('');
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

async function upload(agent: Agent, rows = 3, status: 'uploaded' | 'mapped' = 'mapped') {
  const res = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile('a.csv', csv(rows)),
  });
  const id = res.json().file.id as string;
  if (status === 'mapped')
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: MAPPING,
      hardcodedValues: {},
    });
  return id;
}

const jobUrl = (id: string, kind: string) => `/api/uploads/${id}/jobs/${kind}`;

/** Polls the job's GET until it has finished, as the web app does. */
async function finished(agent: Agent, id: string, kind: 'validate' | 'prepare'): Promise<UploadJob> {
  for (;;) {
    // A read: no XSRF header needed.
    const res = await agent.request({ method: 'GET', url: jobUrl(id, kind), xsrf: false });
    expect(res.statusCode).toBe(200);
    const job = res.json().job as UploadJob;
    if (job.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const passes = async (userId: string, action: string) =>
  (
    await ctx.db.query<{ n: number }>(
      'select coalesce(sum(amount), 0)::int as n from usage_events where workspace_id = $1 and action = $2',
      [userId, action],
    )
  ).rows[0]!.n;

/** Holds every worker of the API's pipeline lane, so a started job stays queued until `release`. */
async function holdPipeline() {
  const pool = pipelinePools.requests;
  const held: Worker[] = [];
  for (let i = 0; i < pool.size; i++) held.push(await pool.acquire());
  return () => held.forEach((w) => pool.release(w, true));
}

describe('validate job', () => {
  it('starts with a short POST (202), is followed by GET to its result, which is what GET /validate answers', async () => {
    const { agent } = owner;
    const id = await upload(agent, 5);
    const start = await agent.post(jobUrl(id, 'validate'));
    expect(start.statusCode).toBe(202);
    const job = start.json().job as UploadJob;
    expect(job).toMatchObject({
      uploadId: id,
      kind: 'validate',
      status: 'running',
      rowsTotal: 5,
      stale: false,
    });
    expect(job.rowsDone).toBeLessThanOrEqual(5);

    const done = await finished(agent, id, 'validate');
    expect(done).toMatchObject({ id: job.id, status: 'done', stage: 'finished', rowsDone: 5, error: null });
    expect(done.finishedAt).not.toBeNull();
    const old = await agent.get(`/api/uploads/${id}/validate`);
    expect(old.statusCode).toBe(200);
    // Everything but time-dependent nothing: the same answer as the one-request route.
    expect(done.result).toEqual(old.json());
    expect(done.result).toMatchObject({ rowsChecked: 5, rowsWithErrors: 0 });
    // The clean result allows 'validated', as after GET /validate.
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  });

  it('runs one at a time per file: a second POST while it runs answers the same job, and the quota counts once', async () => {
    const { agent, userId } = owner;
    const id = await upload(agent, 4);
    const before = await passes(userId, 'validate');
    const release = await holdPipeline();
    let first: UploadJob, second: UploadJob;
    try {
      first = (await agent.post(jobUrl(id, 'validate'))).json().job;
      second = (await agent.post(jobUrl(id, 'validate'))).json().job;
      expect(second.id).toBe(first.id);
      const queued = (await agent.get(jobUrl(id, 'validate'))).json().job as UploadJob;
      expect(queued).toMatchObject({ id: first.id, status: 'running', stage: 'queued', rowsDone: 0 });
    } finally {
      release();
    }
    expect(await finished(agent, id, 'validate')).toMatchObject({ id: first.id, status: 'done' });
    expect(await passes(userId, 'validate')).toBe(before + 4);
    // Finished: the next POST is a new run.
    const again = (await agent.post(jobUrl(id, 'validate'))).json().job as UploadJob;
    expect(again.id).not.toBe(first.id);
    await finished(agent, id, 'validate');
  });

  it('GET /validate called twice at once waits for one job: the same answer, one pass counted', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 7);
    const release = await holdPipeline();
    const starts = vi.spyOn(uploadJobsRepo, 'start');
    const both = Promise.all([
      agent.get(`/api/uploads/${id}/validate`),
      agent.get(`/api/uploads/${id}/validate`),
    ]);
    // Both requests have asked for the job before it may run.
    while (starts.mock.calls.length < 2) await new Promise((r) => setTimeout(r, 10));
    await starts.mock.results[1]!.value;
    starts.mockRestore();
    release();
    const [a, b] = await both;
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(await passes(userId, 'validate')).toBe(7);
  });

  it('stores an error on the job with its code and message, as the old route answers it', async () => {
    const { agent } = owner;
    const id = await upload(agent, 2, 'uploaded');
    expect((await agent.post(jobUrl(id, 'validate'))).statusCode).toBe(202);
    const job = await finished(agent, id, 'validate');
    expect(job).toMatchObject({ status: 'failed', result: null });
    expect(job.error).toEqual({
      code: 'INVALID_STATE',
      message: 'Please finish mapping this file before validating it.',
    });
    const old = await agent.get(`/api/uploads/${id}/validate`);
    expect(old.statusCode).toBe(409);
    expect(old.json()).toMatchObject(job.error!);
  });

  it('fails on the daily quota with RATE_LIMITED, and the old route answers 429 with Retry-After', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 600);
    await agent.post(jobUrl(id, 'validate'));
    expect((await finished(agent, id, 'validate')).status).toBe('done');
    await agent.post(jobUrl(id, 'validate'));
    const refused = await finished(agent, id, 'validate');
    expect(refused.error?.code).toBe('RATE_LIMITED');
    expect(refused.error?.message).toMatch(/^Daily limit reached/);
    expect(refused.error?.retryAfterSeconds).toBeGreaterThan(0);
    const old = await agent.get(`/api/uploads/${id}/validate`);
    expect(old.statusCode).toBe(429);
    expect(old.json().code).toBe('RATE_LIMITED');
    expect(Number(old.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('is stale once the mapping changes, and a POST then replaces a running job for the old mapping', async () => {
    const { agent } = owner;
    const id = await upload(agent, 3);
    await agent.post(jobUrl(id, 'validate'));
    const done = await finished(agent, id, 'validate');
    expect(done.stale).toBe(false);
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { ...MAPPING, Email: '' },
      hardcodedValues: { email: 'x@example.com' },
    });
    expect((await agent.get(jobUrl(id, 'validate'))).json().job).toMatchObject({ id: done.id, stale: true });

    const release = await holdPipeline();
    try {
      const old = (await agent.post(jobUrl(id, 'validate'))).json().job as UploadJob;
      await agent.patch(`/api/uploads/${id}/status`, {
        status: 'mapped',
        mappings: MAPPING,
        hardcodedValues: {},
      });
      const replaced = (await agent.post(jobUrl(id, 'validate'))).json().job as UploadJob;
      expect(replaced.id).not.toBe(old.id);
      expect(replaced.stale).toBe(false);
    } finally {
      release();
    }
    expect(await finished(agent, id, 'validate')).toMatchObject({ status: 'done', stale: false });
  });

  it("reads the user's choice to skip the rows with errors as it is now, not as it was when the job ran", async () => {
    const { agent } = owner;
    const res = await agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('e.csv', csv(2) + `not-an-email,Lead,${WHEN},physical_store\r\n`),
    });
    const id = res.json().file.id as string;
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: MAPPING,
      hardcodedValues: {},
    });
    await agent.post(jobUrl(id, 'validate'));
    const job = await finished(agent, id, 'validate');
    expect(job.result).toMatchObject({ rowsWithErrors: 1, skipErrorRows: false });
    expect(
      (await agent.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: true }))
        .statusCode,
    ).toBe(200);
    expect((await agent.get(jobUrl(id, 'validate'))).json().job.result).toMatchObject({
      skipErrorRows: true,
    });
  });
});

describe('prepare job', () => {
  it('prepares a validated file; its result is what GET /prepare answers', async () => {
    const { agent } = owner;
    const id = await upload(agent, 3);
    await agent.post(jobUrl(id, 'validate'));
    await finished(agent, id, 'validate');
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect((await agent.post(jobUrl(id, 'prepare'))).statusCode).toBe(202);
    const job = await finished(agent, id, 'prepare');
    expect(job).toMatchObject({ kind: 'prepare', status: 'done' });
    expect(job.result).toEqual({
      totalCount: 3,
      status: 'prepared',
      skippedErrorRows: 0,
      skippedRefundRows: 0,
    });
    expect((await agent.get(`/api/uploads/${id}`)).json().status).toBe('prepared');
    const old = await agent.get(`/api/uploads/${id}/prepare`);
    expect(old.statusCode).toBe(200);
    expect(old.json()).toEqual(job.result);
  });

  it('refuses a file not validated yet with INVALID_STATE on the job', async () => {
    const { agent } = owner;
    const id = await upload(agent, 2);
    await agent.post(jobUrl(id, 'prepare'));
    expect((await finished(agent, id, 'prepare')).error).toEqual({
      code: 'INVALID_STATE',
      message: 'File is not ready to be submitted.',
    });
  });
});

describe('job routes refuse', () => {
  it('401 without a session', async () => {
    const { agent } = owner;
    const id = await upload(agent);
    const anon = new (agent.constructor as typeof Agent)(ctx.app);
    expect((await anon.post(jobUrl(id, 'validate'))).statusCode).toBe(401);
    expect((await anon.get(jobUrl(id, 'validate'))).statusCode).toBe(401);
  });

  it("404 for another user's file (the same answer as a file that does not exist), starting nothing", async () => {
    const id = await upload(owner.agent);
    const { agent: other } = await loggedInAgent(ctx.app, ctx.db);
    const post = await other.post(jobUrl(id, 'validate'));
    expect(post.statusCode).toBe(404);
    expect((await other.get(jobUrl(id, 'validate'))).statusCode).toBe(404);
    expect(await uploadJobsRepo.find(ctx.db, id, 'validate')).toBeNull();
  });

  it('403 for a POST without the XSRF header', async () => {
    const id = await upload(owner.agent);
    const res = await owner.agent.post(jobUrl(id, 'validate'), undefined, { xsrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('XSRF_INVALID');
    expect(await uploadJobsRepo.find(ctx.db, id, 'validate')).toBeNull();
  });

  it('400 for an unknown kind or a malformed id; GET of a file with no job answers null', async () => {
    const id = await upload(owner.agent);
    expect((await owner.agent.post(jobUrl(id, 'send'))).statusCode).toBe(400);
    expect((await owner.agent.get(jobUrl(id, 'report'))).statusCode).toBe(400);
    expect((await owner.agent.post(jobUrl('x'.repeat(65), 'validate'))).statusCode).toBe(400);
    expect((await owner.agent.get(jobUrl(id, 'prepare'))).json()).toEqual({ job: null });
  });
});

/** What a sweeper on this process runs jobs with. */
const testJobDeps = (): JobDeps => ({
  db: ctx.db,
  quotas: ctx.config.quotas,
  now: () => new Date(),
  timing: ctx.config.sendTiming,
});

describe('a job whose worker died', () => {
  it('is taken over by a sweep and run again, without counting the quota twice; the dead worker writes nothing', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 6);
    // What a worker killed mid-pass leaves: a running job, its quota taken, some progress, no beat for long.
    const dead = crypto.randomUUID();
    const { job } = await uploadJobsRepo.start(ctx.db, {
      id: crypto.randomUUID(),
      uploadId: id,
      workspaceId: userId,
      kind: 'validate',
      fingerprint: fingerprint((await filesRepo.findInWorkspace(ctx.db, userId, id))!),
      claimToken: dead,
      rowsTotal: 6,
    });
    await ctx.db.query(
      `update upload_jobs set quota_taken = true, stage = 'reading', rows_done = 3,
         heartbeat_at = now() - interval '1 hour' where id = $1`,
      [job.id],
    );
    const used = await passes(userId, 'validate');
    const deps = testJobDeps();
    const taken = await sweepStaleJobs({ ...deps, timing: { ...deps.timing, staleAfterMs: 60_000 } });
    expect(taken).toContain(job.id);
    const done = await finished(agent, id, 'validate');
    expect(done).toMatchObject({ id: job.id, status: 'done', rowsDone: 6, stale: false });
    expect(done.result).toMatchObject({ rowsChecked: 6 });
    expect(await passes(userId, 'validate')).toBe(used);
    expect((await uploadJobsRepo.get(ctx.db, job.id))?.attempts).toBe(2);
    // The dead worker, were it only slow: its beats and its result match nothing.
    expect(await uploadJobsRepo.beat(ctx.db, job.id, dead)).toBe(false);
    expect(await uploadJobsRepo.finish(ctx.db, job.id, dead, { result: { rowsChecked: 0 } })).toBe(false);
    // A second sweep finds nothing to take: the job is done.
    expect(await sweepStaleJobs({ ...deps, timing: { ...deps.timing, staleAfterMs: 0 } })).not.toContain(
      job.id,
    );
  });

  it('is failed after MAX_ATTEMPTS takeovers instead of being run forever', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 2);
    const { job } = await uploadJobsRepo.start(ctx.db, {
      id: crypto.randomUUID(),
      uploadId: id,
      workspaceId: userId,
      kind: 'validate',
      fingerprint: 'x',
      claimToken: crypto.randomUUID(),
      rowsTotal: 2,
    });
    await ctx.db.query(
      `update upload_jobs set attempts = 3, heartbeat_at = now() - interval '1 hour' where id = $1`,
      [job.id],
    );
    const deps = testJobDeps();
    await sweepStaleJobs({ ...deps, timing: { ...deps.timing, staleAfterMs: 60_000 } });
    expect(await finished(agent, id, 'validate')).toMatchObject({
      status: 'failed',
      error: { code: 'INTERNAL' },
    });
  });
});
