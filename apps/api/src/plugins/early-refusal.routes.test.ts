import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { loggedInAgent } from '../../test/agent.ts';
import { multipartFile } from '../../test/multipart.ts';
import { RawConnection, rawRequest } from '../../test/raw-http.ts';

/**
 * Issue 21 finding 3, on a real listening server and one reused socket: a refusal sent before the body was
 * read must not leave the next request on that connection waiting behind unread body bytes.
 */
let ctx: TestContext;
let port = 0;
let cookie = '';
const MAX_MB = 1;

beforeAll(async () => {
  ctx = await createTestContext({ env: { MAX_UPLOAD_MB: String(MAX_MB) } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  const owner = await loggedInAgent(ctx.app, ctx.db);
  await owner.agent.get('/auth/me');
  cookie = [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const xsrf = owner.agent.cookies.get('XSRF-TOKEN')!;
  headers.xsrf = xsrf;
});
afterAll(() => ctx.close());
const headers = { xsrf: '' };

/** What follows a refusal on the same connection: the server closed it, or it answers the next request. */
async function afterRefusal(conn: RawConnection) {
  conn.write(rawRequest('GET', '/api/health', {}));
  const next = await conn.response();
  conn.close();
  return next;
}

const big = (bytes: number) => Buffer.alloc(bytes, 'a');

describe('early refusals on a kept-alive connection', () => {
  it('a 403 (no XSRF header) to /api/upload with a whole body sent does not stall the connection', async () => {
    const conn = await RawConnection.open(port);
    const m = multipartFile('a.csv', big(200_000));
    conn.write(
      rawRequest(
        'POST',
        '/api/upload',
        { cookie, 'content-type': m.headers['content-type'], 'content-length': m.payload.length },
        m.payload,
      ),
    );
    const first = await conn.response();
    expect(first?.status).toBe(403);
    // A declared length within the limit is drained, so the connection stays usable.
    expect((await afterRefusal(conn))?.status).toBe(200);
  });

  it('a 400 for a non-CSV part drains the rest and keeps the connection usable', async () => {
    const conn = await RawConnection.open(port);
    const m = multipartFile('a.png', big(300_000), 'image/png');
    conn.write(
      rawRequest(
        'POST',
        '/api/upload',
        {
          cookie,
          'x-xsrf-token': headers.xsrf,
          'content-type': m.headers['content-type'],
          'content-length': m.payload.length,
        },
        m.payload,
      ),
    );
    const first = await conn.response();
    expect(first?.status).toBe(400);
    expect((await afterRefusal(conn))?.status).toBe(200);
  });

  it('a Content-Length over the upload limit is refused (413) before any body byte is sent', async () => {
    const conn = await RawConnection.open(port);
    conn.write(
      rawRequest('POST', '/api/upload', {
        cookie,
        'x-xsrf-token': headers.xsrf,
        'content-type': 'multipart/form-data; boundary=xyz',
        'content-length': 200 * 1024 * 1024,
      }),
    );
    const first = await conn.response();
    expect(first?.status).toBe(413);
    expect(JSON.parse(first!.body).message).toBe(`File is too large. Max size is ${MAX_MB}MB.`);
    expect(first?.headers.connection).toBe('close');
    await conn.closedByServer();
  });

  it('a JSON body over its limit says so, and closes the connection', async () => {
    const conn = await RawConnection.open(port);
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), mappings: {} });
    conn.write(
      rawRequest(
        'POST',
        '/api/mappings',
        {
          cookie,
          'x-xsrf-token': headers.xsrf,
          'content-type': 'application/json',
          'content-length': body.length,
        },
        body,
      ),
    );
    const first = await conn.response();
    expect(first?.status).toBe(413);
    expect(JSON.parse(first!.body).message).toBe('The request is too large. Max size is 1MB.');
    expect(first?.headers.connection).toBe('close');
    expect(await afterRefusal(conn)).toBeNull();
  });

  it('a chunked upload over the limit is refused (413) and the connection closed, not left stalled', async () => {
    const conn = await RawConnection.open(port);
    const m = multipartFile('a.csv', `Email,Event\r\n${'ann@example.com,Lead\r\n'.repeat(150_000)}`);
    conn.write(
      rawRequest('POST', '/api/upload', {
        cookie,
        'x-xsrf-token': headers.xsrf,
        'content-type': m.headers['content-type'],
        'transfer-encoding': 'chunked',
      }),
    );
    for (let i = 0; i < m.payload.length; i += 64 * 1024) {
      const piece = m.payload.subarray(i, i + 64 * 1024);
      conn.write(
        Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]),
      );
    }
    // The body's end is not sent yet: the server refuses while it is still unread.
    const first = await conn.response();
    conn.write('0\r\n\r\n');
    expect(first?.status).toBe(413);
    expect(first?.headers.connection).toBe('close');
    expect(await afterRefusal(conn)).toBeNull();
  });

  it('a refusal after the body was read keeps the connection alive', async () => {
    const conn = await RawConnection.open(port);
    const body = JSON.stringify({ name: '', mappings: {} });
    conn.write(
      rawRequest(
        'POST',
        '/api/mappings',
        {
          cookie,
          'x-xsrf-token': headers.xsrf,
          'content-type': 'application/json',
          'content-length': body.length,
        },
        body,
      ),
    );
    const first = await conn.response();
    expect(first?.status).toBe(400);
    expect(first?.headers.connection).not.toBe('close');
    expect((await afterRefusal(conn))?.status).toBe(200);
  });
});
