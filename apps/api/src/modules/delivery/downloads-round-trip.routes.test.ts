import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from './delivery.test-helpers.ts';

/**
 * A file the product wrote reads back to the same values (decision 0096): the failed rows of a batch and the
 * skipped rows, downloaded with their formula guards ('-1200, '+1 602…, '=Bob), uploaded again, give the same
 * rows with the same values.
 */
let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => undefined } as unknown as PgBoss;
beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const HEADER = 'Email,Phone,Zip,Value,Currency,First,Last,Country,Event,When,Source';
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  Zip: 'zip',
  Value: 'value',
  Currency: 'currency',
  First: 'first_name',
  Last: 'last_name',
  Country: 'country',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
};
// Cells a spreadsheet guards against formulas (= + - @ first) and one it kept as text ('02108).
const ROWS = [
  `bob@example.com,+1 602 555 0147,'02108,-1200,USD,=Bob,Smith,US,Lead,${when},physical_store`,
  `ann@example.com,+44 7400 123456,SW1A 1AA,49.90,GBP,+Ann,-Eve,United Kingdom,Lead,${when},physical_store`,
  `zed@example.com,07400 123457,EC1A 1BB,-5.5,GBP,@Zed,"=HYPERLINK(""http://x"",""y"")",GB,Lead,${when},physical_store`,
  `marie@example.fr,06 12 34 56 78,75018,12.50,EUR,Marie,-Dupont,France,Lead,${when},physical_store`,
];

async function upload(agent: Agent, name: string, content: string) {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile(name, content, 'text/csv'),
  });
  expect(up.statusCode).toBe(201);
  const id = up.json().file.id as string;
  const mapped = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  expect(mapped.statusCode).toBe(200);
  return id;
}

async function preparedEvents(agent: Agent, id: string) {
  const check = (await agent.get(`/api/uploads/${id}/validate`)).json();
  expect(check.rowsWithErrors, JSON.stringify(check.rows.map((r: { errors: unknown }) => r.errors))).toBe(0);
  expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  return JSON.parse((await agent.get(`/api/uploads/${id}/preview/full`)).body) as {
    event_id: string;
    user_data: Record<string, string[] | string>;
    custom_data?: Record<string, unknown>;
  }[];
}

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));

describe('a file the product wrote reads back to the same values', () => {
  it('failed rows of a batch: downloaded, uploaded again, the same events', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const first = await upload(agent, 'orders.csv', [HEADER, ...ROWS].join('\r\n'));
    const sent = await preparedEvents(agent, first);
    expect(sent).toHaveLength(4);

    // Meta refuses the token: the one batch fails whole, every row of the file in it.
    const accountId = await saveAccount(agent);
    const { runId } = (
      await agent.post(`/api/uploads/${first}/send`, { selectedAccountId: accountId })
    ).json();
    graph.inject({ kind: 'graph', code: 190, subcode: 463, status: 401, message: 'Session has expired.' });
    expect(await work(runId)).toBe('stopped');
    const summary = (await agent.get(`/api/uploads/${first}/summary`)).json();
    const failed = summary.batches.filter((b: { status: string }) => b.status === 'failed');
    expect(failed).toHaveLength(1);
    const dl = await agent.get(`/api/uploads/${first}/batches/${failed[0].batchId}/download-original`);
    expect(dl.statusCode).toBe(200);
    // The download guards every formula-like cell for spreadsheets.
    for (const guarded of [
      `"'-1200"`,
      `"'+1 602 555 0147"`,
      `"'=Bob"`,
      `"'+Ann"`,
      `"'-Eve"`,
      `"'@Zed"`,
      `"'-5.5"`,
    ])
      expect(dl.body).toContain(guarded);

    const again = await upload(agent, 'failed-rows.csv', dl.body);
    const read = await preparedEvents(agent, again);
    // Same rows, same values: the events are the same, event_ids included.
    expect(read).toEqual(sent);
    expect(read[0]!.custom_data).toMatchObject({ value: -1200, currency: 'USD' });
    expect(read[0]!.user_data).toMatchObject({
      ph: [sha('16025550147')],
      zp: [sha('02108')],
      fn: [sha('bob')],
    });
    expect(read[2]!.custom_data).toMatchObject({ value: -5.5 });
    expect(read[2]!.user_data).toMatchObject({ ph: [sha('447400123457')] });
    expect(read[3]!.user_data).toMatchObject({ ph: [sha('33612345678')], zp: [sha('75018')] });
  });

  it('skipped rows: downloaded, uploaded again, the same rows with the same values and errors', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    // Rows 3 and 5 have no event time: skipped, then downloaded with why.
    const rows = [ROWS[0]!, ROWS[1]!.replace(when, ''), ROWS[2]!, ROWS[3]!.replace(when, '')];
    const first = await upload(agent, 'orders.csv', [HEADER, ...rows].join('\r\n'));
    const check = (await agent.get(`/api/uploads/${first}/validate`)).json();
    expect(check.rowsWithErrors).toBe(2);
    const chosen = await agent.patch(`/api/uploads/${first}/status`, {
      status: 'validated',
      skipErrorRows: true,
    });
    expect(chosen.statusCode).toBe(200);
    const skipped = await agent.get(`/api/uploads/${first}/skipped-rows.csv`);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.body).toContain(`"'+44 7400 123456"`);
    expect(skipped.body).toContain(`"'-Dupont"`);

    const again = await upload(agent, 'skipped-rows.csv', skipped.body);
    const reread = (await agent.get(`/api/uploads/${again}/validate`)).json();
    expect(reread.rowsChecked).toBe(2);
    expect(reread.rowsWithErrors).toBe(2);
    type Row = {
      rowNumber: number;
      errors: unknown[];
      effectiveRow: Record<string, string>;
      hasErrors: boolean;
    };
    const before = (check.rows as Row[]).filter((r) => r.hasErrors);
    const after = (reread.rows as Row[]).filter((r) => r.hasErrors);
    expect(after.map((r) => r.effectiveRow)).toEqual(before.map((r) => r.effectiveRow));
    expect(after.map((r) => r.errors)).toEqual(before.map((r) => r.errors));
    expect(after[0]!.effectiveRow).toMatchObject({ phone: '447400123456', last_name: 'eve', country: 'gb' });
    expect(after[1]!.effectiveRow).toMatchObject({ phone: '33612345678', last_name: 'dupont', zip: '75018' });
  });
});
