import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openCrashDatabase, type CrashDatabase } from '../../../test/crash-database.ts';
import { insertFirstWorkspace } from '../../../test/context.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../db/db.ts';
import { createUpload } from './files.service.ts';
import { filesRepo } from './files.repo.ts';
import { uploadJobsRepo } from './upload-jobs.repo.ts';
import { sweepStaleJobs } from './upload-jobs.service.ts';
import { runningHere } from './upload-jobs.runner.ts';

/**
 * A real process, a real SIGKILL in the middle of a validation job (decision 0091). On PostgreSQL
 * (TEST_DATABASE_URL) the worker shares the test database; on the embedded database, which one process owns at a
 * time, the worker and then this test open an on-disk PGlite in turn.
 */
const WORKER = fileURLToPath(new URL('./upload-jobs.crash-worker.ts', import.meta.url));
const ROWS = 5_000;
let target: CrashDatabase;

beforeAll(async () => {
  target = await openCrashDatabase('bs-job-crash-');
});
afterAll(() => target.drop().catch(() => {}));

const usedRows = async (db: Db, userId: string) =>
  (
    await db.query<{ n: number }>(
      `select coalesce(sum(amount), 0)::int as n from usage_events where workspace_id = $1 and action = 'validate'`,
      [userId],
    )
  ).rows[0]!.n;

it('a validation whose process was killed mid-pass is taken over and finished once, the quota counted once', async () => {
  const when = new Date(Date.now() - 3600_000).toISOString().slice(0, 19) + 'Z';
  const { userId, uploadId } = await target.withDb(async (db) => {
    const userId = crypto.randomUUID();
    await db.query(
      `insert into users (id, email, first_name, last_name, password_hash, email_verified) values ($1, $2, 'C', 'T', 'x', true)`,
      [userId, `${userId}@example.com`],
    );
    await insertFirstWorkspace(db, userId);
    async function* csv() {
      yield Buffer.from('Email,Event,When,Source\n');
      for (let i = 0; i < ROWS; i += 1000)
        yield Buffer.from(
          Array.from({ length: 1000 }, (_, k) => `p${i + k}@example.com,Lead,${when},physical_store\n`).join(
            '',
          ),
        );
    }
    const { file } = await createUpload(db, userId, 'big.csv', csv(), {
      maxBytes: 1e9,
      quotas: { uploadBytes: 1e12, rows: 1e9 },
      now: new Date(),
    });
    await filesRepo.saveMapping(db, file.id, {
      status: 'mapped',
      mappings: { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' },
      hardcodedValues: {},
      autoMapped: {},
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
    });
    return { userId, uploadId: file.id };
  });

  const { code, signal, out } = await new Promise<{
    code: number | null;
    signal: string | null;
    out: string;
  }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: {
        ...process.env,
        ...target.env,
        CRASH_USER_ID: userId,
        CRASH_UPLOAD_ID: uploadId,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  const { jobId, killedAt } = JSON.parse(out.trim().split('\n').pop()!) as {
    jobId: string;
    killedAt: number;
  };
  expect(killedAt).toBeGreaterThan(0);
  expect(killedAt).toBeLessThan(ROWS);

  await target.withDb(async (db) => {
    const left = (await uploadJobsRepo.get(db, jobId))!;
    // What the dead worker left: a running job, its quota counted, no result.
    expect(left).toMatchObject({ status: 'running', quotaTaken: true, attempts: 1, result: null });
    expect(await usedRows(db, userId)).toBe(ROWS);
    const deps = {
      db,
      quotas: { uploadBytes: 1e12, rows: 1e9 },
      now: () => new Date(),
      timing: { heartbeatMs: 100, staleAfterMs: 400, sweepEveryMs: 100 },
    };
    // A live process's sweep takes it over once the dead worker's beat is older than staleAfterMs.
    while (!(await sweepStaleJobs(deps)).includes(jobId)) await new Promise((r) => setTimeout(r, 100));
    await runningHere(jobId);
    const done = (await uploadJobsRepo.get(db, jobId))!;
    expect(done).toMatchObject({ status: 'done', attempts: 2, rowsDone: ROWS, error: null });
    expect(done.result).toMatchObject({ rowsChecked: ROWS, rowsWithErrors: 0 });
    expect(await usedRows(db, userId)).toBe(ROWS);
    // The clean result was written: the file may move to 'validated'.
    const f = (await filesRepo.findInWorkspace(db, userId, uploadId))!;
    expect(f.cleanFingerprint).not.toBeNull();
  });
}, 60_000);
