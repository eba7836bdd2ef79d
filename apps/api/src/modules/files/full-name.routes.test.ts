import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { suggestMappings } from '@backsignal/core';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from '../delivery/delivery.test-helpers.ts';

// Decision 0097: a Shopify order export's "Billing Name" feeds fn and ln; its empty "Phone" gives way to
// "Billing Phone"; decimal commas in a ";" file are told.
let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => {} } as unknown as PgBoss;
beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const SHOPIFY = [
  'Name,Email,Financial Status,Paid at,Currency,Total,Lineitem name,Billing Name,Billing Phone,Shipping Name,Phone',
  `#1001,ann@example.com,paid,${when},EUR,42.00,Mug,Dr. Ann van der Berg,+31 6 12345678,Ann van der Berg,`,
  `#1002,bob@example.com,paid,${when},EUR,10.00,Cap,"García Márquez, Gabriel",+34 612 345 678,,`,
].join('\r\n');

async function upload(agent: Agent, name: string, content: string) {
  const up = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile(name, content) });
  expect(up.statusCode).toBe(201);
  return up.json().file.id as string;
}

describe('a Shopify order export with only "Billing Name"', () => {
  it('suggests full_name and Billing Phone from the headers endpoint’s samples', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'orders_export.csv', SHOPIFY);
    const res = await agent.get(`/api/uploads/${id}/headers`);
    expect(res.statusCode).toBe(200);
    const { headers, samples } = res.json();
    expect(samples.Phone).toEqual([]);
    const s = suggestMappings(headers, samples);
    expect(s.reverse).toMatchObject({ full_name: 'Billing Name', phone: 'Billing Phone', email: 'Email' });
    expect(s.choices).toEqual([{ field: 'phone', chosen: 'Billing Phone', over: 'Phone' }]);
  });

  it('answers 401 logged out and 404 for another user’s file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'orders_export.csv', SHOPIFY);
    expect((await new Agent(ctx.app).get(`/api/uploads/${id}/headers`)).statusCode).toBe(401);
    const other = (await loggedInAgent(ctx.app, ctx.db)).agent;
    expect((await other.get(`/api/uploads/${id}/headers`)).statusCode).toBe(404);
  });

  it('sends fn and ln split from it, normalised and hashed', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'orders_export.csv', SHOPIFY);
    const mapped = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: {
        Email: 'email',
        'Paid at': 'event_time',
        Currency: 'currency',
        Total: 'value',
        'Billing Name': 'full_name',
        'Billing Phone': 'phone',
      },
      hardcodedValues: { event_name: 'Purchase', action_source: 'physical_store' },
    });
    expect(mapped.statusCode).toBe(200);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.rowsWithErrors).toBe(0);
    expect(v.rowsWithDrops).toBe(0);
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect((await agent.get(`/api/uploads/${id}/prepare`)).json().totalCount).toBe(2);
    const accountId = await saveAccount(agent);
    const res = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(res.statusCode).toBe(202);

    const bodies: { data: { user_data: Record<string, string[]> }[] }[] = [];
    const capture: typeof fetch = async (url, init) => {
      if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
      else if (init?.body instanceof Uint8Array) bodies.push(JSON.parse(Buffer.from(init.body).toString()));
      return fetch(url, init);
    };
    const run = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
    expect(await run(res.json().runId as string, { fetch: capture })).toBe('completed');
    const users = bodies.flatMap((b) => b.data.map((e) => e.user_data));
    expect(users.map((u) => [u.fn, u.ln])).toEqual([
      [[sha('ann')], [sha('vanderberg')]],
      [[sha('gabriel')], [sha('garcíamárquez')]],
    ]);
  });
});

describe('amounts read by convention', () => {
  it('tells a decimal comma and "." between thousands in a ";" file, and its "sep=" line', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(
      agent,
      'bestellingen.csv',
      [
        'sep=;',
        'E-mail;Datum;Bedrag;Valuta',
        `an@example.nl;${when};12,50;EUR`,
        `bo@example.nl;${when};1.234,50;EUR`,
      ].join('\r\n'),
    );
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { 'E-mail': 'email', Datum: 'event_time', Bedrag: 'value', Valuta: 'currency' },
      hardcodedValues: { event_name: 'Purchase', action_source: 'physical_store' },
    });
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.rowsWithErrors).toBe(0);
    expect(v.fileNotices.map((n: { message: string }) => n.message)).toEqual([
      'Separator line: the first line, "sep=;", is Excel\'s note of the column separator. Columns were split at ";", and the line was not read as a row.',
      'Amounts use a decimal comma: "12,50" was read as 12.50 (2 amounts in all).',
      'Amounts use "." between thousands: "1.234,50" was read as 1234.50.',
    ]);
  });
});
