import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { type Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { sealToken } from '../pixels/token-crypto.ts';
import { tick } from './scheduler.ts';
import type { RunnerDeps } from './source-run.ts';
import { sealLegacyUrlSecrets } from './sources.service.ts';
import {
  leadsCsv,
  runScheduled,
  saveAccount,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

let ctx: TestContext;
let graph: FakeGraph;
let sheet: Awaited<ReturnType<typeof fakeServer>>;
let elsewhere: Awaited<ReturnType<typeof fakeServer>>;
let clock = new Date();
let runner: RunnerDeps;
/** The signature the presigned file answers to; anything else is refused, as S3 would. */
let signature = 'sig-abc-123';

const CREDENTIAL = 'AKIAEXAMPLE%2F20261201%2Fus-east-1%2Fs3%2Faws4_request';
const signed = (path: string, sig: string, extra = '') =>
  `${sheet.url}${path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${CREDENTIAL}&X-Amz-Date=20261201T000000Z&X-Amz-Expires=604800&X-Amz-Signature=${sig}${extra}`;
const masked = (path: string, extra = '') =>
  `${sheet.url}${path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${SECRET_MASK}&X-Amz-Date=20261201T000000Z&X-Amz-Expires=604800&X-Amz-Signature=${SECRET_MASK}${extra}`;
const urlConn = (url: string, extra: object = {}) => ({ kind: 'csv_url', url, auth: 'none', ...extra });

beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sheet = await fakeServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const okSig = url.searchParams.get('X-Amz-Signature') === signature;
    const okToken = url.pathname !== '/legacy.csv' || url.searchParams.get('token') === 'legacy-token-1';
    if (!okSig && url.pathname !== '/legacy.csv') {
      res.writeHead(403);
      return void res.end('SignatureDoesNotMatch');
    }
    if (!okToken || (url.pathname === '/legacy.csv' && req.headers['x-api-key'] !== 'legacy-header-1')) {
      res.writeHead(401);
      return void res.end('no');
    }
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(leadsCsv(2, 4));
  });
  elsewhere = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(leadsCsv(2, 3));
  });
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await elsewhere.close();
  await sheet.close();
  await graph.close();
  await ctx.close();
});
beforeEach(() => {
  graph.reset();
  signature = 'sig-abc-123';
});
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

const stored = async (id: string) =>
  (
    await ctx.db.query<{ connection: string; c: Uint8Array | null }>(
      'select connection::text as connection, secret_ciphertext as c from sources where id = $1',
      [id],
    )
  ).rows[0]!;

/** The query strings the presigned file's server received, newest last. */
const seenQueries = (server = sheet) => server.requests.map((r) => new URL(r.url, 'http://x').search);

async function save(agent: Agent, accountId: string, url: string, extra: object = {}) {
  const res = await agent.post(
    '/api/sources',
    sourceInput(accountId, urlConn(url), { name: 'Signed', ...extra }),
  );
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const setClock = (d: Date) => (clock = d);

describe('secrets in a CSV URL query (issue 30)', () => {
  it('seals a presigned URL signature, shows it masked, and fetches with the real one', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await save(agent, accountId, signed('/signed.csv', 'sig-abc-123'));

    // The database keeps the URL with the values masked; the values are in the sealed secret only.
    const row = await stored(id);
    expect(row.connection).not.toContain('sig-abc-123');
    expect(row.connection).not.toContain('AKIAEXAMPLE');
    expect(JSON.parse(row.connection).url).toBe(masked('/signed.csv'));
    expect(Buffer.from(row.c!).toString('latin1')).not.toContain('sig-abc-123');

    // The API shows the masked URL; neither the detail nor the list carries the values.
    const detail = await agent.get(`/api/sources/${id}`);
    expect(detail.json().connection).toEqual({
      kind: 'csv_url',
      url: masked('/signed.csv'),
      auth: 'none',
      headerName: null,
      username: null,
      hasSecret: false,
    });
    for (const body of [detail.body, (await agent.get('/api/sources')).body]) {
      expect(body).not.toContain('sig-abc-123');
      expect(body).not.toContain('AKIAEXAMPLE');
    }

    // A run rebuilds the real URL: the file's server sees the signature, the run sends the rows.
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ sourceId: id, status: 'sent' }),
    ]);
    expect(seenQueries().at(-1)).toBe(new URL(signed('/signed.csv', 'sig-abc-123')).search);
    const runs = (await agent.get(`/api/sources/${id}/runs`)).body;
    expect(runs).not.toContain('sig-abc-123');

    // "Test fetch" of the saved source with the masked URL uses the stored values.
    const before = sheet.requests.length;
    const test = await agent.post('/api/sources/test-fetch', {
      connection: urlConn(masked('/signed.csv')),
      sourceId: id,
    });
    expect(test.json()).toMatchObject({ ok: true, rowCount: 3 });
    expect(sheet.requests.length).toBe(before + 1);
    expect(seenQueries().at(-1)).toContain('X-Amz-Signature=sig-abc-123');
  });

  it('keeps the stored values when an edit leaves the masked URL, and takes the new ones typed', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await save(agent, accountId, signed('/signed.csv', 'sig-abc-123'));

    const edit = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, urlConn(masked('/signed.csv', '&week=48')), { name: 'Renamed' }),
    );
    expect(edit.statusCode).toBe(200);
    expect(JSON.parse((await stored(id)).connection).url).toBe(masked('/signed.csv', '&week=48'));
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    const seen = new URL(`http://x/${seenQueries().at(-1)}`).searchParams;
    expect(seen.get('X-Amz-Signature')).toBe('sig-abc-123');
    expect(seen.get('X-Amz-Credential')).toBe(decodeURIComponent(CREDENTIAL));
    expect(seen.get('week')).toBe('48');

    // A new presigned link (the old one expired): the new signature replaces the stored one.
    signature = 'sig-new-456';
    const renewed = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, urlConn(signed('/signed.csv', 'sig-new-456')), { name: 'Renamed' }),
    );
    expect(renewed.statusCode).toBe(200);
    expect((await stored(id)).connection).not.toContain('sig-new-456');
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id })]);
    expect(seenQueries().at(-1)).toContain('X-Amz-Signature=sig-new-456');
  });

  it('never sends the stored values to another path or origin: the owner types them again', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await save(agent, accountId, signed('/signed.csv', 'sig-abc-123'));
    const again =
      'Enter the values of X-Amz-Credential, X-Amz-Signature in the URL again: stored values are kept only for the same URL.';
    const before = sheet.requests.length;

    for (const url of [
      masked('/someone-else.csv'),
      masked('/signed.csv').replace(sheet.url, elsewhere.url),
    ]) {
      const test = await agent.post('/api/sources/test-fetch', { connection: urlConn(url), sourceId: id });
      expect(test.statusCode).toBe(400);
      expect(test.json()).toMatchObject({ message: again, fields: { url: again } });
      const edit = await agent.patch(`/api/sources/${id}`, sourceInput(accountId, urlConn(url)));
      expect(edit.statusCode).toBe(400);
      expect(edit.json()).toMatchObject({ message: again, fields: { url: again } });
    }
    expect(sheet.requests.length).toBe(before);
    expect(elsewhere.requests).toHaveLength(0);
    // Unchanged by the refused edits.
    expect(JSON.parse((await stored(id)).connection).url).toBe(masked('/signed.csv'));

    // A masked value on a new source has nothing to stand for.
    const fresh = await agent.post('/api/sources', sourceInput(accountId, urlConn(masked('/signed.csv'))));
    expect(fresh.statusCode).toBe(400);
    expect(fresh.json().fields.url).toBe('Enter the values of X-Amz-Credential, X-Amz-Signature in the URL.');

    // With the values typed, another path is fine.
    const typed = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, urlConn(signed('/other.csv', 'sig-other'))),
    );
    expect(typed.statusCode).toBe(200);
  });

  it('opens secrets sealed before the query values were, and seals the plain values such rows kept', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await save(agent, accountId, signed('/signed.csv', 'sig-abc-123'));
    // A row as the code before decision 0102 wrote it: the header token sealed alone with its own additional
    // data, and the URL's token in plain text in the connection.
    const legacyUrl = `${sheet.url}/legacy.csv?token=legacy-token-1&week=48`;
    const old = sealToken(ctx.config.tokenKeys, 'legacy-header-1', `source:${userId}:${id}`);
    await ctx.db.query(
      `update sources set connection = $2, secret_ciphertext = $3, secret_iv = $4, secret_tag = $5,
         secret_key_version = $6 where id = $1`,
      [
        id,
        JSON.stringify({
          kind: 'csv_url',
          url: legacyUrl,
          auth: 'header',
          headerName: 'X-Api-Key',
          username: null,
        }),
        old.ciphertext,
        old.iv,
        old.tag,
        old.keyVersion,
      ],
    );

    // Shown masked before anything was sealed again; a run still sends both secrets.
    const shown = `${sheet.url}/legacy.csv?token=${SECRET_MASK}&week=48`;
    const detail = await agent.get(`/api/sources/${id}`);
    expect(detail.json().connection).toMatchObject({ url: shown, hasSecret: true });
    expect(detail.body).not.toContain('legacy-token-1');
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    expect(sheet.requests.at(-1)).toMatchObject({
      url: '/legacy.csv?token=legacy-token-1&week=48',
      headers: expect.objectContaining({ 'x-api-key': 'legacy-header-1' }),
    });

    // The start-up pass seals the plain value (and leaves a row it already sealed as it is).
    expect(await sealLegacyUrlSecrets(ctx)).toBe(1);
    expect(await sealLegacyUrlSecrets(ctx)).toBe(0);
    const row = await stored(id);
    expect(row.connection).not.toContain('legacy-token-1');
    expect(JSON.parse(row.connection).url).toBe(shown);
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id })]);
    expect(sheet.requests.at(-1)).toMatchObject({
      url: '/legacy.csv?token=legacy-token-1&week=48',
      headers: expect.objectContaining({ 'x-api-key': 'legacy-header-1' }),
    });

    // An edit with the masked URL and no token keeps both.
    const edit = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, urlConn(shown, { auth: 'header', headerName: 'X-Api-Key' })),
    );
    expect(edit.statusCode).toBe(200);
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id })]);
    expect(sheet.requests.at(-1)).toMatchObject({
      url: '/legacy.csv?token=legacy-token-1&week=48',
      headers: expect.objectContaining({ 'x-api-key': 'legacy-header-1' }),
    });
  });

  it('an edit of a row still holding plain values keeps them when the masked URL is left', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await save(agent, accountId, signed('/signed.csv', 'sig-abc-123'));
    await ctx.db.query(
      `update sources set connection = $2, secret_ciphertext = null, secret_iv = null,
      secret_tag = null, secret_key_version = null where id = $1`,
      [
        id,
        JSON.stringify(urlConn(signed('/signed.csv', 'sig-abc-123'), { headerName: null, username: null })),
      ],
    );
    const edit = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, urlConn(masked('/signed.csv'))),
    );
    expect(edit.statusCode).toBe(200);
    expect((await stored(id)).connection).not.toContain('sig-abc-123');
    await agent.post(`/api/sources/${id}/run`);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    expect(seenQueries().at(-1)).toContain('X-Amz-Signature=sig-abc-123');
  });
});
