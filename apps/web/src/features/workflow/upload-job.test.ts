import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadJob } from '@backsignal/contracts';

const api = vi.hoisted(() => vi.fn());
vi.mock('../../lib/api.ts', async (orig) => ({ ...(await orig<object>()), api }));
const { runUploadJob, REUSE_RESULT_MS } = await import('./upload-job.ts');
const { ApiError } = await import('../../lib/api.ts');

const result = { totalCount: 3, status: 'prepared', skippedErrorRows: 0 };
const job = (over: Partial<UploadJob> = {}): UploadJob =>
  ({
    id: 'j1',
    uploadId: 'f1',
    kind: 'prepare',
    status: 'running',
    stage: 'reading',
    rowsDone: 1,
    rowsTotal: 3,
    stale: false,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    error: null,
    result: null,
    ...over,
  }) as UploadJob;
const done = (over: Partial<UploadJob> = {}) =>
  job({
    status: 'done',
    stage: 'finished',
    rowsDone: 3,
    finishedAt: new Date().toISOString(),
    result,
    ...over,
  } as never);

/** Answers GETs of the job from `gets` in turn, and the POST with `posted`. */
function server(gets: (UploadJob | null)[], posted?: UploadJob) {
  api.mockImplementation(async (_path: string, opts?: { method?: string }) => {
    if (opts?.method === 'POST') return { job: posted };
    return { job: gets.shift() ?? null };
  });
}
const posts = () => api.mock.calls.filter(([, o]) => o?.method === 'POST').length;

beforeEach(() => {
  api.mockReset();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

describe('runUploadJob', () => {
  it('starts a job when the file has none, reports its progress and answers its result', async () => {
    server([null, job({ rowsDone: 2 }), done()], job({ rowsDone: 0, stage: 'queued' }));
    const seen: string[] = [];
    const out = await runUploadJob('f1', 'prepare', (p) => seen.push(`${p.stage}:${p.rowsDone}`));
    expect(out).toEqual(result);
    expect(posts()).toBe(1);
    expect(seen).toEqual(['queued:0', 'reading:2', 'finished:3']);
    expect(api).toHaveBeenCalledWith('/api/uploads/f1/jobs/prepare', { method: 'POST' });
  });

  it('follows a job already running (a reloaded page) without starting another', async () => {
    server([job(), done()]);
    expect(await runUploadJob('f1', 'prepare')).toEqual(result);
    expect(posts()).toBe(0);
  });

  it('shows a result that just finished for the file as it is, but runs again when stale or old', async () => {
    server([done()]);
    expect(await runUploadJob('f1', 'prepare')).toEqual(result);
    expect(posts()).toBe(0);

    const old = new Date(Date.now() - REUSE_RESULT_MS - 1000).toISOString();
    for (const found of [done({ stale: true }), done({ finishedAt: old }), job({ stale: true })]) {
      api.mockReset();
      server([found], done({ id: 'j2' }));
      await runUploadJob('f1', 'prepare');
      expect(posts()).toBe(1);
    }
  });

  it("throws a failed job's error with its code and message, as the one-request route did", async () => {
    server(
      [null],
      job({
        status: 'failed',
        stage: 'finished',
        error: { code: 'INVALID_STATE', message: 'File is not ready to be submitted.' },
      }),
    );
    const err = await runUploadJob('f1', 'prepare').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: 'INVALID_STATE',
      status: 409,
      message: 'File is not ready to be submitted.',
    });
  });

  it('stops with a conflict when the job is replaced by a newer one (the file changed elsewhere)', async () => {
    server([null, job({ id: 'other' })], job());
    await expect(runUploadJob('f1', 'prepare')).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
