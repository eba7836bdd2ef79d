import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { loggedInAgent } from '../../test/agent.ts';
import { deliveryRepo } from '../modules/delivery/delivery.repo.ts';
import { seedUploadAndAccount } from '../modules/delivery/delivery.test-helpers.ts';

const SQL = readFileSync(new URL('./migrations/0304_redact_meta_tokens.sql', import.meta.url), 'utf8');
const TOKEN = 'EAABwzLixnjYBO0123456789abcdefXYZ';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('0304_redact_meta_tokens', () => {
  it('cuts Meta tokens out of answers stored before the client did', async () => {
    const { userId } = await loggedInAgent(ctx.app, ctx.db);
    const { uploadId, accountId } = await seedUploadAndAccount(ctx.db, userId);
    const run = await deliveryRepo.createRun(ctx.db, {
      workspaceId: userId,
      uploadId,
      accountId,
      pixelId: '123456789',
      accountName: 'Main pixel',
      testEventCode: null,
      skipDelivered: true,
    });
    const answer = `{"error":{"message":"Malformed access token ${TOKEN}","code":190}}`;
    await ctx.db.query('update send_runs set stop_error = $2 where id = $1', [run.id, answer]);
    await ctx.db.query(
      `insert into send_batches (id, run_id, workspace_id, idx, row_numbers, first_row, last_row, event_count, status, error_raw, payload_hash)
       values ($1, $2, $3, 0, '{2}', 2, 2, 1, 'failed', $4, 'h'), ($5, $2, $3, 1, '{3}', 3, 3, 1, 'failed', 'no token here', 'h')`,
      [randomUUID(), run.id, userId, answer, randomUUID()],
    );

    await ctx.db.exec(SQL);

    const batches = await ctx.db.query<{ error_raw: string }>(
      'select error_raw from send_batches where run_id = $1 order by idx',
      [run.id],
    );
    const expected = '{"error":{"message":"Malformed access token [access token removed]","code":190}}';
    expect(batches.rows.map((b) => b.error_raw)).toEqual([expected, 'no token here']);
    const runs = await ctx.db.query<{ stop_error: string }>(
      'select stop_error from send_runs where id = $1',
      [run.id],
    );
    expect(runs.rows[0]!.stop_error).toBe(expected);
  });
});
