import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { LEDGER_KEEP_DAYS, applyRetention } from './retention.ts';
import { sourcesRepo } from '../sources/sources.repo.ts';

/** Issue 21 finding 8: retention as a job, tested by moving the job's clock instead of waiting. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60 * 1000;
const count = async (table: string, where = 'true', params: unknown[] = []) =>
  (await ctx.db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, params))
    .rows[0]!.n;
const CSV = 'Email,Event,When\r\nann@example.com,Lead,2026-11-21T10:00:00Z\r\n';

/** A user with one uploaded file, one finished run on it (with a failed batch) and its ledger entry. */
async function sentFile() {
  const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
  const upload = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('a.csv', CSV) });
  const uploadId = upload.json().file.id as string;
  const runId = randomUUID();
  await ctx.db.query(
    `insert into send_runs (id, workspace_id, upload_id, pixel_id, status, finished_at)
     values ($1, $2, $3, '123', 'completed_with_errors', now())`,
    [runId, userId, uploadId],
  );
  await ctx.db.query(
    `insert into send_batches (id, run_id, workspace_id, idx, row_numbers, first_row, last_row, event_count, status,
       error_raw, payload_hash)
     values ($1, $2, $3, 0, '{2}', 2, 2, 1, 'failed', 'row 2: ann@example.com refused', 'h')`,
    [randomUUID(), runId, userId],
  );
  await ctx.db.query(
    `insert into delivery_ledger (workspace_id, pixel_id, event_name, event_id, run_id) values ($1, '123', 'Lead', $2, $3)`,
    [userId, `ev-${uploadId}`, runId],
  );
  return { agent, userId, uploadId, runId };
}

describe('applyRetention', () => {
  it('keeps everything younger than RETENTION_DAYS', async () => {
    const f = await sentFile();
    await applyRetention(ctx.db, new Date(Date.now() + 364 * DAY), {
      retentionDays: 365,
      analyticsRetentionDays: 90,
    });
    expect(await count('uploads', 'id = $1', [f.uploadId])).toBe(1);
    expect(await count('upload_chunks', 'upload_id = $1', [f.uploadId])).toBeGreaterThan(0);
    expect(await count('send_runs', 'id = $1', [f.runId])).toBe(1);
    expect((await f.agent.get(`/api/uploads/${f.uploadId}`)).statusCode).toBe(200);
  });

  it('deletes uploads, chunks, runs and failed-row data past RETENTION_DAYS, and keeps the account', async () => {
    const f = await sentFile();
    const template = await f.agent.post('/api/mappings', { name: 'Kept', mappings: { Email: 'email' } });
    await applyRetention(ctx.db, new Date(Date.now() + 366 * DAY), {
      retentionDays: 365,
      analyticsRetentionDays: 90,
    });
    expect(await count('uploads', 'id = $1', [f.uploadId])).toBe(0);
    expect(await count('upload_chunks', 'upload_id = $1', [f.uploadId])).toBe(0);
    expect(await count('send_runs', 'id = $1', [f.runId])).toBe(0);
    expect(await count('send_batches', 'run_id = $1', [f.runId])).toBe(0);
    expect((await f.agent.get(`/api/uploads/${f.uploadId}`)).statusCode).toBe(404);
    expect(await count('users', 'id = $1', [f.userId])).toBe(1);
    expect(await count('mapping_templates', 'id = $1', [template.json().id])).toBe(1);
  });

  it('keeps the ledger entries dedup needs after their file is gone, for LEDGER_KEEP_DAYS only', async () => {
    const f = await sentFile();
    const policy = { retentionDays: 30, analyticsRetentionDays: 90 };
    await applyRetention(ctx.db, new Date(Date.now() + 31 * DAY), policy);
    expect(await count('uploads', 'id = $1', [f.uploadId])).toBe(0);
    expect(await count('delivery_ledger', 'workspace_id = $1', [f.userId])).toBe(1);
    await applyRetention(ctx.db, new Date(Date.now() + (LEDGER_KEEP_DAYS + 1) * DAY), policy);
    expect(await count('delivery_ledger', 'workspace_id = $1', [f.userId])).toBe(0);
  });

  it('never deletes a running send or the file it reads', async () => {
    const f = await sentFile();
    await ctx.db.query(`update send_runs set status = 'running', finished_at = null where id = $1`, [
      f.runId,
    ]);
    await applyRetention(ctx.db, new Date(Date.now() + 400 * DAY), {
      retentionDays: 365,
      analyticsRetentionDays: 90,
    });
    expect(await count('send_runs', 'id = $1', [f.runId])).toBe(1);
    expect(await count('uploads', 'id = $1', [f.uploadId])).toBe(1);
  });

  it('deletes finished source runs, public form submissions and files no listing showed past RETENTION_DAYS', async () => {
    const { userId } = await sentFile();
    const sourceId = randomUUID();
    await ctx.db.query(
      `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
       values ($1, $2, 'Nightly', 'csv_url', '{}', '{}', '{}', 'UTC')`,
      [sourceId, userId],
    );
    const [done, running] = [randomUUID(), randomUUID()];
    await ctx.db.query(
      `insert into source_runs (id, source_id, workspace_id, trigger, status, finished_at, skipped_rows)
       values ($1, $3, $4, 'schedule', 'paused', now(), '[{"row": 2, "values": ["ann@example.com"]}]'),
              ($2, $3, $4, 'manual', 'running', null, '[]')`,
      [done, running, sourceId, userId],
    );
    await ctx.db.query(
      `insert into public_submissions (id, kind, email, ip, payload) values ($1, 'contact', 'bo@example.com', '192.0.2.1', '{}')`,
      [randomUUID()],
    );
    await ctx.db.query(
      `insert into source_seen (source_id, item_key, seen_at) values ($1, 'gone', now()), ($1, 'still-there', now())`,
      [sourceId],
    );
    const policy = { retentionDays: 365, analyticsRetentionDays: 90 };
    await applyRetention(ctx.db, new Date(Date.now() + 364 * DAY), policy);
    expect(await count('source_runs', 'source_id = $1', [sourceId])).toBe(2);
    expect(await count('public_submissions', `email = 'bo@example.com'`)).toBe(1);
    // Both files were first processed 400 days ago; a listing today still shows one of them, which marks it seen
    // again, so only the one gone from the server is forgotten.
    await ctx.db.query(`update source_seen set seen_at = now() - interval '400 days' where source_id = $1`, [
      sourceId,
    ]);
    expect(await sourcesRepo.seenKeys(ctx.db, sourceId, ['still-there'])).toEqual(new Set(['still-there']));
    await applyRetention(ctx.db, new Date(), policy);
    expect(await count('source_seen', `source_id = $1 and item_key = 'still-there'`, [sourceId])).toBe(1);
    expect(await count('source_seen', `source_id = $1 and item_key = 'gone'`, [sourceId])).toBe(0);
    await applyRetention(ctx.db, new Date(Date.now() + 366 * DAY), policy);
    expect(await count('source_runs', 'id = $1', [done])).toBe(0);
    expect(await count('source_runs', 'id = $1', [running])).toBe(1);
    expect(await count('sources', 'id = $1', [sourceId])).toBe(1);
    expect(await count('public_submissions', `email = 'bo@example.com'`)).toBe(0);
  });

  it('deletes invitations RETENTION_DAYS after they ended, never a pending one before it expires', async () => {
    const { userId } = await loggedInAgent(ctx.app, ctx.db);
    const invite = (email: string, ended: string) =>
      ctx.db.query(
        `insert into workspace_invitations (id, workspace_id, email, role, token_hash, created_at, last_sent_at,
           expires_at, accepted_at, revoked_at)
         values ($1, $2, $3, 'member', $4, now(), now(), now() + interval '7 days', ${ended})`,
        [randomUUID(), userId, email, randomUUID()],
      );
    await invite('pending@example.com', 'null, null');
    await invite('accepted@example.com', 'now(), null');
    await invite('revoked@example.com', 'null, now()');
    const policy = { retentionDays: 365, analyticsRetentionDays: 90 };
    const left = async () =>
      (
        await ctx.db.query<{ email: string }>(
          'select email from workspace_invitations where workspace_id = $1 order by email',
          [userId],
        )
      ).rows.map((r) => r.email);
    await applyRetention(ctx.db, new Date(Date.now() + 364 * DAY), policy);
    expect(await left()).toEqual(['accepted@example.com', 'pending@example.com', 'revoked@example.com']);
    await applyRetention(ctx.db, new Date(Date.now() + 366 * DAY), policy);
    expect(await left()).toEqual(['pending@example.com']);
    await applyRetention(ctx.db, new Date(Date.now() + 373 * DAY), policy);
    expect(await left()).toEqual([]);
  });

  it('deletes anonymous analytics after ANALYTICS_RETENTION_DAYS', async () => {
    await ctx.db.query(
      `insert into analytics_events (name, path, occurred_at, received_at) values ('demo_viewed', '/retention', now(), now())`,
    );
    const policy = { retentionDays: 365, analyticsRetentionDays: 90 };
    await applyRetention(ctx.db, new Date(Date.now() + 89 * DAY), policy);
    expect(await count('analytics_events', `path = '/retention'`)).toBe(1);
    await applyRetention(ctx.db, new Date(Date.now() + 91 * DAY), policy);
    expect(await count('analytics_events', `path = '/retention'`)).toBe(0);
  });
});
