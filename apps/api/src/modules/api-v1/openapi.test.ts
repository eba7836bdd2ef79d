import Ajv2020 from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { bearer, createApiKey } from '../../../test/api-key.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { saveAccount, testPixelId } from '../delivery/delivery.test-helpers.ts';
import { leadsCsv, MAPPING, sourceInput } from '../sources/sources.test-helpers.ts';

/**
 * The published document against the app: every v1 route is in it, and every answer the routes give (successes
 * and errors) matches the schema the document gives for that status, checked by a JSON Schema validator that
 * knows nothing of zod.
 */
let ctx: TestContext;
let doc: {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};
const queue = { send: async () => undefined } as unknown as PgBoss;
const ajv = new Ajv2020({ strict: false });
const checked = new Set<string>();

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  const r = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(r.statusCode).toBe(200);
  doc = r.json();
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
});
afterAll(() => ctx.close());

/** Checks one answer against the document: its status is documented, and its JSON body is valid for it. */
function agrees(method: string, template: string, res: LightMyRequestResponse) {
  const op = doc.paths[template.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  expect(op, `${method} ${template} in the document`).toBeDefined();
  const documented = op!.responses[String(res.statusCode)];
  expect(documented, `${method} ${template} answered ${res.statusCode}: ${res.body}`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
  const media = documented!.content?.[type];
  expect(media, `${method} ${template} ${res.statusCode} as ${type}`).toBeDefined();
  if (type === 'application/json') {
    const schema = JSON.parse(JSON.stringify(media!.schema).replaceAll('"#/components', '"doc#/components'));
    const validate = ajv.compile(schema);
    expect(
      validate(res.json()),
      `${method} ${template} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`,
    ).toBe(true);
  }
  checked.add(`${method} ${template}`);
}

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.1, public, and lists every v1 route with its method', () => {
    expect(doc.openapi).toBe('3.1.0');
    const v1 = ctx.app.routeTable.filter(
      (r) => r.url.startsWith('/api/v1/') && r.url !== '/api/v1/openapi.json',
    );
    expect(v1.length).toBeGreaterThan(20);
    const missing = v1.filter((r) => !doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
  });

  it('every route’s answers agree with the document', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const admin = (await createApiKey(agent, 'admin')).secret;
    const read = (await createApiKey(agent, 'read')).secret;
    const accountId = await saveAccount(agent, undefined, testPixelId());
    const templateId = (
      await agent.post('/api/mappings', { name: 'T', mappings: MAPPING, hardcoded: {} })
    ).json().id;
    const sourceId = (
      await agent.post(
        '/api/sources',
        sourceInput(accountId, { kind: 'csv_url', url: 'http://127.0.0.1:9/a.csv', auth: 'none' }),
      )
    ).json().id;
    const call = async (key: string, method: string, template: string, url: string, payload?: unknown) => {
      const res = await ctx.app.inject({
        method: method as 'GET',
        url,
        headers: bearer(key),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      agrees(method, template, res);
      return res;
    };
    const file = multipartFile('a.csv', leadsCsv(1, 3), 'text/csv');
    const up = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      ...file,
      headers: { ...file.headers, ...bearer(admin) },
    });
    agrees('POST', '/api/v1/uploads', up);
    const id = up.json().file.id as string;
    const u = `/api/v1/uploads/${id}`;
    await call(admin, 'GET', '/api/v1/workspace', '/api/v1/workspace');
    await call(admin, 'GET', '/api/v1/uploads', '/api/v1/uploads?limit=1');
    await call(admin, 'GET', '/api/v1/uploads/:id', u);
    await call(read, 'DELETE', '/api/v1/uploads/:id', u);
    await call(admin, 'GET', '/api/v1/uploads/:id/jobs/:kind', `${u}/jobs/validate`);
    await call(admin, 'POST', '/api/v1/uploads/:id/jobs/:kind', `${u}/jobs/validate`, {});
    await call(admin, 'PUT', '/api/v1/uploads/:id/mapping', `${u}/mapping`, { mappings: MAPPING });
    await call(admin, 'POST', '/api/v1/uploads/:id/jobs/:kind', `${u}/jobs/validate`, {});
    for (;;) {
      const r = await call(admin, 'GET', '/api/v1/uploads/:id/jobs/:kind', `${u}/jobs/validate`);
      if (r.json().job.stage === 'finished') break;
      await new Promise((done) => setTimeout(done, 20));
    }
    await call(admin, 'POST', '/api/v1/uploads/:id/jobs/:kind', `${u}/jobs/prepare`, {});
    await call(admin, 'POST', '/api/v1/uploads/:id/send', `${u}/send`, { selectedAccountId: 'nope' });
    await call(admin, 'GET', '/api/v1/uploads/:id/summary', `${u}/summary`);
    await call(admin, 'GET', '/api/v1/uploads/:id/failed-rows', `${u}/failed-rows`);
    await call(admin, 'DELETE', '/api/v1/uploads/:id', u);
    await call(admin, 'GET', '/api/v1/pixel-accounts', '/api/v1/pixel-accounts');
    const made = await call(admin, 'POST', '/api/v1/pixel-accounts', '/api/v1/pixel-accounts', {
      name: 'B',
      pixelId: testPixelId(),
      accessToken: 'EAAB-token-1234',
    });
    await call(read, 'POST', '/api/v1/pixel-accounts', '/api/v1/pixel-accounts', {});
    await call(
      admin,
      'PUT',
      '/api/v1/pixel-accounts/:id/token',
      `/api/v1/pixel-accounts/${made.json().id}/token`,
      {
        accessToken: 'EAAB-token-5678',
      },
    );
    await call(admin, 'GET', '/api/v1/templates', '/api/v1/templates');
    await call(admin, 'GET', '/api/v1/templates/:id', `/api/v1/templates/${templateId}`);
    await call(admin, 'GET', '/api/v1/sources', '/api/v1/sources?limit=5');
    await call(admin, 'GET', '/api/v1/sources/:id/runs', `/api/v1/sources/${sourceId}/runs`);
    await call(admin, 'POST', '/api/v1/sources/:id/pause', `/api/v1/sources/${sourceId}/pause`);
    await call(admin, 'POST', '/api/v1/sources/:id/resume', `/api/v1/sources/${sourceId}/resume`);
    await call(admin, 'POST', '/api/v1/sources/:id/run', `/api/v1/sources/${sourceId}/run`);
    await call(admin, 'POST', '/api/v1/events', '/api/v1/events', {
      rows: [],
      mappings: MAPPING,
      pixelAccount: 'x',
    });
    await call(admin, 'POST', '/api/v1/events', '/api/v1/events', {
      rows: [{ Email: 'not an address', Event: 'Lead', When: 'never', Source: 'web' }],
      mappings: MAPPING,
      pixelAccount: accountId,
    });
    // Resumable uploads (tus): refusals answer JSON errors; tus.routes.test.ts follows an upload through.
    await call(admin, 'POST', '/api/v1/uploads/tus', '/api/v1/uploads/tus', {});
    const tus = `/api/v1/uploads/tus/${'0'.repeat(32)}`;
    await call(admin, 'PATCH', '/api/v1/uploads/tus/:id', tus, {});
    await call(admin, 'DELETE', '/api/v1/uploads/tus/:id', tus);
    await call(admin, 'GET', '/api/v1/uploads/tus/:id', tus);
    const all = ctx.app.routeTable
      .filter((r) => r.url.startsWith('/api/v1/') && r.url !== '/api/v1/openapi.json')
      .map((r) => `${r.method} ${r.url}`);
    expect(
      all.filter((k) => !checked.has(k)),
      'routes this test did not call',
    ).toEqual([]);
  });
});
