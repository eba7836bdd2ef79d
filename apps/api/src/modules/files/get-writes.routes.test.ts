import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/**
 * Issue 21 finding 4 (and issue 30 for the skipped rows): the spec keeps validate, prepare and the three
 * pass-spending downloads as GETs, so they need the XSRF header: a cross-site navigation or <img> carries the
 * Lax cookie but cannot set a header.
 */
let ctx: TestContext;
let owner: Awaited<ReturnType<typeof loggedInAgent>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await loggedInAgent(ctx.app, ctx.db);
});
afterAll(() => ctx.close());

const CSV = 'Email,Event,When,Source\r\nann@example.com,Lead,2026-11-21T10:00:00Z,physical_store\r\n';
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

async function fileIn(status: 'mapped' | 'validated') {
  const { agent } = owner;
  const id = (
    await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('a.csv', CSV) })
  ).json().file.id as string;
  await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  if (status === 'validated') {
    expect((await agent.get(`/api/uploads/${id}/validate`)).statusCode).toBe(200);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  }
  return id;
}
const state = async (id: string) => {
  const r = await ctx.db.query<{ status: string; passes: number }>(
    `select u.status, (select count(*)::int from usage_events e where e.workspace_id = u.workspace_id) as passes
       from uploads u where u.id = $1`,
    [id],
  );
  return r.rows[0]!;
};
/** What a cross-site top-level GET or image sends: the session cookie, no header. */
const crossSite = (url: string) =>
  owner.agent.request({
    method: 'GET',
    url,
    xsrf: false,
    headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
  });

describe.each([
  ['validate', 'mapped', (id: string) => `/api/uploads/${id}/validate`],
  ['the validation report', 'mapped', (id: string) => `/api/uploads/${id}/validate/report.csv`],
  ['the skipped-rows download', 'mapped', (id: string) => `/api/uploads/${id}/skipped-rows.csv`],
  ['prepare', 'validated', (id: string) => `/api/uploads/${id}/prepare`],
  ['the full preview download', 'validated', (id: string) => `/api/uploads/${id}/preview/full`],
] as const)('GET %s', (_, from, url) => {
  it('without the XSRF header is refused with 403 and changes nothing, spends nothing', async () => {
    const id = await fileIn(from);
    const before = await state(id);
    const res = await crossSite(url(id));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('XSRF_INVALID');
    expect(await state(id)).toEqual(before);
    // HEAD runs the same handler (Fastify answers it from the GET route), so it is refused alike.
    const head = await owner.agent.request({ method: 'HEAD', url: url(id), xsrf: false });
    expect(head.statusCode).toBe(403);
    expect(await state(id)).toEqual(before);
  });

  it('with the header (the web client always sends it) works', async () => {
    const id = await fileIn(from);
    const res = await owner.agent.get(url(id));
    expect(res.statusCode).toBe(200);
  });
});

it('read-only GETs still need no header (links to the app, the summary, the preview)', async () => {
  const id = await fileIn('validated');
  for (const url of [
    '/api/uploads',
    `/api/uploads/${id}`,
    `/api/uploads/${id}/headers`,
    `/api/uploads/${id}/preview`,
  ])
    expect((await owner.agent.request({ method: 'GET', url, xsrf: false })).statusCode).toBe(200);
});
