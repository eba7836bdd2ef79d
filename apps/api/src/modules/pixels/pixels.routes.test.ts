import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer, json } from '../../../test/fake-http.ts';

let ctx: TestContext;
let graph: Awaited<ReturnType<typeof fakeServer>>;
const TOKEN = 'EAAB-secret-token-1234';

beforeAll(async () => {
  graph = await fakeServer((req, res) => {
    const token = req.headers.authorization?.replace('Bearer ', '');
    if (token === 'expired')
      return json(res, 400, { error: { code: 190, message: 'Error validating access token' } });
    if (req.url.startsWith('/v25.0/999999'))
      return json(res, 400, { error: { code: 100, error_subcode: 33, message: 'Unsupported get request' } });
    if (token === 'noperm') return json(res, 403, { error: { code: 200, message: 'Permissions error' } });
    // An error that quotes the token back, as Meta's "Malformed access token …" does.
    if (token?.startsWith('EAAQuoted'))
      return json(res, 400, { error: { code: 1, message: `Unknown error for token ${token}` } });
    return json(res, 200, { id: '123456789', name: 'Store pixel' });
  });
  ctx = await createTestContext({ env: { META_GRAPH_URL: graph.url } });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
});

const create = (
  agent: Agent,
  body: object = { name: 'Main store', pixelId: '123456789', accessToken: TOKEN },
) => agent.post('/api/meta/accounts', body);

describe('pixel accounts', () => {
  it('saves an account with the token encrypted at rest and only a masked token in lists', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const res = await create(agent);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Main store',
      pixelId: '123456789',
      accessToken: '••••••••1234',
      status: 'active',
      message: 'Account saved',
    });
    const list = await agent.get('/api/meta/accounts');
    expect(list.body).not.toContain(TOKEN);
    const raw = await ctx.db.query<{ token_ciphertext: Uint8Array }>(
      'select token_ciphertext from pixel_accounts where id = $1',
      [res.json().id],
    );
    expect(Buffer.from(raw.rows[0]!.token_ciphertext).toString('latin1')).not.toContain('secret');
    // Write-only (security.md §2.10): no call answers the saved token.
    expect((await agent.get(`/api/meta/accounts/${res.json().id}/token`)).statusCode).toBe(404);
    const one = await agent.patch(`/api/meta/accounts/${res.json().id}`, { name: 'Renamed' });
    for (const r of [res, list, one]) expect(r.body).not.toContain(TOKEN);
  });

  it('does not decrypt a token moved to another record', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const one = (await create(a.agent)).json().id;
    const two = (await create(a.agent, { pixelId: '22222', accessToken: 'other-token-9999' })).json().id;
    await ctx.db.query(
      `update pixel_accounts set token_ciphertext = s.token_ciphertext, token_iv = s.token_iv, token_tag = s.token_tag
         from (select token_ciphertext, token_iv, token_tag from pixel_accounts where id = $1) s where pixel_accounts.id = $2`,
      [one, two],
    );
    // The test call opens the token itself: it fails instead of using `one`'s, and says what to do (issue 21).
    const test = await a.agent.post(`/api/meta/accounts/${two}/test`);
    expect(test.statusCode).toBe(409);
    expect(test.json().message).toMatch(/^This pixel account needs to be reconnected/);
    expect(graph.requests.filter((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toEqual([]);
    const list = (await a.agent.get('/api/meta/accounts')).json() as { id: string; status: string }[];
    expect(list.find((x) => x.id === two)?.status).toBe('reconnect_needed');
    expect(list.find((x) => x.id === one)?.status).toBe('active');
    // Renaming needs the token too: the same clear answer; pasting a new token repairs the account.
    expect((await a.agent.patch(`/api/meta/accounts/${two}`, { name: 'X' })).statusCode).toBe(409);
    const fixed = await a.agent.patch(`/api/meta/accounts/${two}`, { accessToken: 'fresh-token-5555' });
    expect(fixed.json().status).toBe('active');
  });

  it('requires pixel id and token with the spec message, and digits for the pixel id', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    expect((await create(agent, { pixelId: '', accessToken: '' })).json().message).toBe(
      'Pixel ID and Access Token are required.',
    );
    expect((await create(agent, { pixelId: '123456' })).json().message).toBe(
      'Pixel ID and Access Token are required.',
    );
    expect((await create(agent, { pixelId: 'abc', accessToken: 'x' })).json().message).toMatch(/digits only/);
  });

  it('updates the label and token, and deletes', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await create(agent)).json().id;
    const up = await agent.patch(`/api/meta/accounts/${id}`, {
      name: 'Renamed',
      accessToken: 'new-token-5678',
    });
    expect(up.json()).toMatchObject({ name: 'Renamed', accessToken: '••••••••5678' });
    await agent.post(`/api/meta/accounts/${id}/test`);
    expect(graph.requests.at(-1)!.headers.authorization).toBe('Bearer new-token-5678');
    expect((await agent.delete(`/api/meta/accounts/${id}`)).statusCode).toBe(200);
    expect((await agent.get('/api/meta/accounts')).json()).toEqual([]);
  });

  it('tests the connection with the token in a header and explains failures plainly', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const good = (await create(agent)).json().id;
    expect((await agent.post(`/api/meta/accounts/${good}/test`)).json()).toEqual({
      ok: true,
      message: 'Connected to "Store pixel".',
      pixelName: 'Store pixel',
    });
    const last = graph.requests.at(-1)!;
    expect(last.url).toBe('/v25.0/123456789?fields=id,name');
    expect(last.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const expired = (await create(agent, { pixelId: '123456789', accessToken: 'expired' })).json().id;
    expect((await agent.post(`/api/meta/accounts/${expired}/test`)).json().message).toMatch(
      /invalid or has expired/,
    );
    const wrong = (await create(agent, { pixelId: '999999', accessToken: TOKEN })).json().id;
    expect((await agent.post(`/api/meta/accounts/${wrong}/test`)).json().message).toMatch(
      /Pixel ID 999999 was not found/,
    );
    const noperm = (await create(agent, { pixelId: '123456789', accessToken: 'noperm' })).json().id;
    expect((await agent.post(`/api/meta/accounts/${noperm}/test`)).json().message).toMatch(/no permission/);
    const quoted = 'EAAQuoted0123456789abcdefgh';
    const echo = (await create(agent, { pixelId: '123456789', accessToken: quoted })).json().id;
    const answer = await agent.post(`/api/meta/accounts/${echo}/test`);
    expect(answer.body).not.toContain(quoted);
    expect(answer.json().message).toBe(
      'Meta answered with an error: Unknown error for token [access token removed]',
    );
  });

  it("guards every call: 401, 403 without XSRF, 404 for another user's account", async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = (await create(a.agent)).json().id;
    expect((await new Agent(ctx.app).get('/api/meta/accounts')).statusCode).toBe(401);
    expect(
      (await a.agent.post('/api/meta/accounts', { pixelId: '1234567', accessToken: 'x' }, { xsrf: false }))
        .statusCode,
    ).toBe(403);
    for (const r of [
      await b.agent.patch(`/api/meta/accounts/${id}`, { name: 'Mine now' }),
      await b.agent.post(`/api/meta/accounts/${id}/test`),
      await b.agent.delete(`/api/meta/accounts/${id}`),
    ])
      expect(r.statusCode).toBe(404);
    expect((await b.agent.get('/api/meta/accounts')).json()).toEqual([]);
  });
});
