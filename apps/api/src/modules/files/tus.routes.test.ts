import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { RawConnection, rawRequest } from '../../../test/raw-http.ts';
import { bearer, createApiKey } from '../../../test/api-key.ts';
import { sweepTusUploads, tusDirectory } from './tus-uploads.ts';

/**
 * Resumable uploads through a real listening server (tus needs real requests and sockets that can be cut):
 * create, append in chunks, a PATCH cut off halfway and resumed from the offset HEAD gives, the finished file
 * read into an ordinary upload, and the refusals (role, workspace, XSRF, size, type).
 */
let ctx: TestContext;
let base = '';
let port = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'backsignal-tus-test-'));
const dir = tusDirectory(dataDir);

beforeAll(async () => {
  ctx = await createTestContext({ env: { DATA_DIR: dataDir, MAX_UPLOAD_MB: '1' } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A browser tab's cookies and XSRF header for an agent that has a session. */
async function browser(agent: Agent, workspace?: string) {
  await agent.get('/auth/me');
  return {
    cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-xsrf-token': agent.cookies.get('XSRF-TOKEN')!,
    ...(workspace ? { 'x-workspace': workspace } : {}),
  };
}
type Headers = Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read field by field in assertions
type Json = any;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const csv = (rows: number) =>
  Buffer.from(
    'Email,Phone,Event\n' +
      Array.from(
        { length: rows },
        (_, i) => `person${i}@example.com,650555${String(i).padStart(4, '0')},Lead\n`,
      ).join(''),
  );

const tus = (method: string, url: string, auth: Headers, headers: Headers = {}, body?: Buffer) =>
  fetch(`${base}${url}`, { method, headers: { 'tus-resumable': '1.0.0', ...auth, ...headers }, body });

async function create(auth: Headers, size: number, name = 'leads.csv', path = '/api/uploads/tus') {
  return tus('POST', path, auth, {
    'upload-length': String(size),
    'upload-metadata': `filename ${b64(name)},filetype ${b64('text/csv')}`,
  });
}
const patch = (auth: Headers, location: string, offset: number, chunk: Buffer) =>
  tus(
    'PATCH',
    location,
    auth,
    {
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    chunk,
  );

async function until<T>(probe: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The finished upload's outcome once it has been read. */
const outcome = (auth: Headers, location: string) =>
  until(async () => {
    const r = await fetch(`${base}${location}`, { headers: auth });
    return r.status === 202 ? null : { status: r.status, body: (await r.json()) as Json };
  });

describe('tus uploads', () => {
  it('creates, appends in chunks and reads the finished file into an ordinary upload; no partial file left', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const auth = await browser(agent);
    const file = csv(5000);
    const created = await create(auth, file.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/tus\/[0-9a-f]{32}$/);
    const step = 64 * 1024;
    for (let offset = 0; offset < file.length; offset += step) {
      const r = await patch(auth, location, offset, file.subarray(offset, offset + step));
      expect(r.status).toBe(204);
      expect(Number(r.headers.get('upload-offset'))).toBe(Math.min(offset + step, file.length));
    }
    const done = await outcome(auth, location);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      state: 'done',
      upload: { message: 'Uploaded: leads.csv', headers: ['Email', 'Phone', 'Event'] },
    });
    expect(done.body.upload.file).toMatchObject({
      fileName: 'leads.csv',
      rowCount: 5000,
      sizeBytes: file.length,
    });
    const listed = (await agent.get(`/api/uploads/${done.body.upload.file.id}`)).json();
    expect(listed).toMatchObject({ status: 'uploaded', rowCount: 5000 });
    expect(readdirSync(dir)).toEqual([]);
    // The partial file is gone: HEAD says so.
    expect((await tus('HEAD', location, auth)).status).toBe(404);
  });

  it('resumes from the offset HEAD gives after the connection is cut halfway through a PATCH', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const auth = await browser(agent);
    const file = csv(8000);
    const location = (await create(auth, file.length)).headers.get('location')!;
    const id = location.split('/').pop()!;
    const half = Math.floor(file.length / 2);

    const conn = await RawConnection.open(port);
    conn.write(
      rawRequest(
        'PATCH',
        location,
        {
          ...auth,
          'tus-resumable': '1.0.0',
          'upload-offset': 0,
          'content-type': 'application/offset+octet-stream',
          'content-length': file.length,
        },
        file.subarray(0, half),
      ),
    );
    // Cut once the server has written bytes of it, as a dropped connection would.
    await until(async () => (existsSync(join(dir, id)) && statSync(join(dir, id)).size > 0 ? true : null));
    conn.close();

    const offset = await until(async () => {
      const r = await tus('HEAD', location, auth);
      return r.status === 200 ? Number(r.headers.get('upload-offset')) : null;
    });
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    // A PATCH from any other offset is refused: the client must resume where the server is.
    expect((await patch(auth, location, offset + 1, file.subarray(offset + 1))).status).toBe(409);
    const rest = await patch(auth, location, offset, file.subarray(offset));
    expect(rest.status).toBe(204);
    const done = await outcome(auth, location);
    expect(done.body.upload.file).toMatchObject({ rowCount: 8000, sizeBytes: file.length });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a file over the upload limit at creation, with the single upload’s message, writing nothing', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const r = await create(await browser(agent), 1024 * 1024 + 1);
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File is too large. Max size is 1MB.',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a file that is not a CSV by name or type, and a creation without a size', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const auth = await browser(agent);
    const r = await tus('POST', '/api/uploads/tus', auth, {
      'upload-length': '10',
      'upload-metadata': `filename ${b64('photo.png')},filetype ${b64('image/png')}`,
    });
    expect([r.status, ((await r.json()) as Json).message]).toEqual([
      400,
      'Invalid file type. Please upload a CSV file.',
    ]);
    const deferred = await tus('POST', '/api/uploads/tus', auth, { 'upload-defer-length': '1' });
    expect(deferred.status).toBe(400);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a finished file that is not a CSV answers the single upload’s error and leaves nothing', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const auth = await browser(agent);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 4]);
    const location = (await create(auth, bytes.length)).headers.get('location')!;
    expect((await patch(auth, location, 0, bytes)).status).toBe(204);
    const done = await outcome(auth, location);
    expect(done.status).toBe(400);
    expect(done.body.code).toBe('VALIDATION_FAILED');
    expect(readdirSync(dir)).toEqual([]);
    expect((await agent.get('/api/uploads')).json().total).toBe(0);
  });

  it('refuses a viewer, another workspace, a missing XSRF header and no session', async () => {
    const owner = await loggedInAgent(ctx.app, ctx.db);
    const ownerAuth = await browser(owner.agent);
    const slug = (await owner.agent.get('/api/workspaces')).json().current as string;
    const location = (await create(ownerAuth, 100)).headers.get('location')!;

    const viewer = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [owner.userId, viewer.userId],
    );
    const viewerAuth = await browser(viewer.agent, slug);
    const refused = await create(viewerAuth, 100);
    expect([refused.status, ((await refused.json()) as Json).code]).toEqual([403, 'FORBIDDEN']);
    expect((await patch(viewerAuth, location, 0, Buffer.from('a'))).status).toBe(403);

    // A member of another workspace, in its own workspace, does not find the owner's upload.
    const stranger = await browser((await loggedInAgent(ctx.app, ctx.db)).agent);
    for (const method of ['HEAD', 'DELETE'])
      expect((await tus(method, location, stranger)).status, method).toBe(404);
    expect((await patch(stranger, location, 0, Buffer.from('Email\n'))).status).toBe(404);
    expect((await fetch(`${base}${location}`, { headers: stranger })).status).toBe(404);
    // Naming the owner's workspace is refused as a workspace the stranger is not in.
    expect((await tus('HEAD', location, { ...stranger, 'x-workspace': slug })).status).toBe(404);

    const { 'x-xsrf-token': _, ...noXsrf } = ownerAuth;
    const r = await patch(noXsrf, location, 0, Buffer.from('a'));
    expect([r.status, ((await r.json()) as Json).code]).toEqual([403, 'XSRF_INVALID']);
    expect((await tus('HEAD', location, {})).status).toBe(401);

    const head = await tus('HEAD', location, ownerAuth);
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '0']);
    expect((await tus('DELETE', location, ownerAuth)).status).toBe(204);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('housekeeping deletes a partial upload a day after it was created', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const auth = await browser(agent);
    const location = (await create(auth, 1000)).headers.get('location')!;
    expect((await patch(auth, location, 0, csv(5).subarray(0, 50))).status).toBe(204);
    expect(await sweepTusUploads(dir, new Date(Date.now() + 23 * 3600_000))).toBe(0);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(await sweepTusUploads(dir, new Date(Date.now() + 25 * 3600_000))).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
    expect((await tus('HEAD', location, auth)).status).toBe(404);
  });

  it('takes an upload with an API key of the send scope under /api/v1, and refuses a read key or a session there', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const key = bearer((await createApiKey(agent, 'send')).secret);
    const file = csv(300);
    const created = await create(key, file.length, 'from-cli.csv', '/api/v1/uploads/tus');
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/v1\/uploads\/tus\/[0-9a-f]{32}$/);
    const half = Math.floor(file.length / 2);
    expect((await patch(key, location, 0, file.subarray(0, half))).status).toBe(204);
    expect((await tus('HEAD', location, key)).headers.get('upload-offset')).toBe(String(half));
    expect((await patch(key, location, half, file.subarray(half))).status).toBe(204);
    const done = await outcome(key, location);
    expect(done.body.upload.file).toMatchObject({ fileName: 'from-cli.csv', rowCount: 300 });
    // The upload is the workspace's like any other, and the activity log names the key.
    expect((await agent.get(`/api/uploads/${done.body.upload.file.id}`)).statusCode).toBe(200);
    const log = (await agent.get('/api/workspace/activity')).json();
    expect(JSON.stringify(log)).toContain('API key');

    // Errors in the v1 shape, with the docs link.
    const big = await create(key, 1024 * 1024 + 1, 'big.csv', '/api/v1/uploads/tus');
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File is too large. Max size is 1MB.',
      docs: expect.stringContaining('#description/errors'),
      requestId: expect.any(String),
    });

    const read = bearer((await createApiKey(agent, 'read')).secret);
    expect((await create(read, 10, 'x.csv', '/api/v1/uploads/tus')).status).toBe(403);
    expect((await create(await browser(agent), 10, 'x.csv', '/api/v1/uploads/tus')).status).toBe(401);
    // A key does not open the session routes.
    expect((await create(key, 10)).status).not.toBe(201);
    expect(readdirSync(dir)).toEqual([]);
  });
});
