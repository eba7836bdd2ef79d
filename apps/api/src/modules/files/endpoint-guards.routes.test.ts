import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** Every file, template and pixel-account endpoint: 401 without a session, 403 for unsafe calls without XSRF. */
let ctx: TestContext;
let owner: Awaited<ReturnType<typeof loggedInAgent>>;
const ids = { file: '', template: '', account: '' };
const CSV = 'Email,Event,When,Source\r\nann@example.com,Lead,2026-11-21T10:00:00Z,physical_store\r\n';

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await loggedInAgent(ctx.app, ctx.db);
  ids.file = (
    await owner.agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('a.csv', CSV) })
  ).json().file.id;
  ids.template = (
    await owner.agent.post('/api/mappings', { name: 'T', mappings: { Email: 'email' } })
  ).json().id;
  ids.account = (
    await owner.agent.post('/api/meta/accounts', { pixelId: '123456789', accessToken: 'EAAB-token-1234' })
  ).json().id;
});
afterAll(() => ctx.close());

type Call = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: () => string;
  body?: () => object;
  file?: boolean;
};
const f = () => `/api/uploads/${ids.file}`;
const CALLS: Record<string, Call> = {
  'GET /api/uploads': { method: 'GET', url: () => '/api/uploads' },
  'POST /api/upload': { method: 'POST', url: () => '/api/upload', file: true },
  'GET /api/uploads/:id': { method: 'GET', url: f },
  'DELETE /api/uploads/:id': { method: 'DELETE', url: f },
  'GET /api/uploads/:id/headers': { method: 'GET', url: () => `${f()}/headers` },
  'PATCH /api/uploads/:id/status': {
    method: 'PATCH',
    url: () => `${f()}/status`,
    body: () => ({ status: 'uploaded', mappings: {} }),
  },
  'POST /api/uploads/:id/fixed': { method: 'POST', url: () => `${f()}/fixed`, file: true },
  'GET /api/uploads/:id/validate': { method: 'GET', url: () => `${f()}/validate` },
  'GET /api/uploads/:id/validate/report.csv': { method: 'GET', url: () => `${f()}/validate/report.csv` },
  'GET /api/uploads/:id/skipped-rows.csv': { method: 'GET', url: () => `${f()}/skipped-rows.csv` },
  'GET /api/uploads/:id/prepare': { method: 'GET', url: () => `${f()}/prepare` },
  'GET /api/uploads/:id/preview': { method: 'GET', url: () => `${f()}/preview` },
  'GET /api/uploads/:id/preview/full': { method: 'GET', url: () => `${f()}/preview/full` },
  'GET /api/mappings': { method: 'GET', url: () => '/api/mappings' },
  'POST /api/mappings': {
    method: 'POST',
    url: () => '/api/mappings',
    body: () => ({ name: 'New', mappings: {} }),
  },
  'GET /api/mappings/:id': { method: 'GET', url: () => `/api/mappings/${ids.template}` },
  'PATCH /api/mappings/:id': {
    method: 'PATCH',
    url: () => `/api/mappings/${ids.template}`,
    body: () => ({ name: 'Renamed' }),
  },
  'DELETE /api/mappings/:id': { method: 'DELETE', url: () => `/api/mappings/${ids.template}` },
  'GET /api/meta/accounts': { method: 'GET', url: () => '/api/meta/accounts' },
  'POST /api/meta/accounts': {
    method: 'POST',
    url: () => '/api/meta/accounts',
    body: () => ({ pixelId: '1234567', accessToken: 'x' }),
  },
  'PATCH /api/meta/accounts/:id': {
    method: 'PATCH',
    url: () => `/api/meta/accounts/${ids.account}`,
    body: () => ({ name: 'Mine' }),
  },
  'POST /api/meta/accounts/:id/test': { method: 'POST', url: () => `/api/meta/accounts/${ids.account}/test` },
  'DELETE /api/meta/accounts/:id': { method: 'DELETE', url: () => `/api/meta/accounts/${ids.account}` },
};

const send = (agent: Agent, c: Call, xsrf = true) =>
  agent.request({
    method: c.method,
    url: c.url(),
    xsrf,
    ...(c.file ? multipartFile('b.csv', CSV) : c.body ? { payload: c.body() } : {}),
  });

describe('endpoint guards', () => {
  it.each(Object.keys(CALLS))('%s answers 401 without a session', async (name) => {
    const res = await send(new Agent(ctx.app), CALLS[name]!);
    expect(res.statusCode).toBe(401);
  });

  it.each(Object.keys(CALLS).filter((n) => !n.startsWith('GET')))(
    '%s answers 403 without the XSRF header and changes nothing',
    async (name) => {
      const res = await send(owner.agent, CALLS[name]!, false);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('XSRF_INVALID');
    },
  );

  it('left every resource as it was', async () => {
    expect((await owner.agent.get('/api/uploads')).json().total).toBe(1);
    expect((await owner.agent.get(f())).json().fileName).toBe('a.csv');
    expect((await owner.agent.get('/api/mappings')).json()).toEqual([{ id: ids.template, name: 'T' }]);
    expect((await owner.agent.get('/api/meta/accounts')).json()).toMatchObject([
      { id: ids.account, name: '' },
    ]);
  });
});
