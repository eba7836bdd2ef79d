import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer } from '../../../test/fake-http.ts';
import { createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '../../config/env.ts';
import { UNWRITTEN_DATA_DIR } from '../../../test/context.ts';
import { fetchOptions } from './source-connection.ts';
import { fetchUrl, UNREACHABLE, type UrlFetchOptions } from './url-fetch.ts';

let server: Awaited<ReturnType<typeof fakeServer>>;
const hang: (() => void)[] = [];
beforeAll(async () => {
  server = await fakeServer((req, res) => {
    if (req.url === '/hang') return new Promise<void>((r) => hang.push(r)).then(() => void res.end());
    if (req.url === '/slow-body') {
      res.writeHead(200);
      res.write('a,b\n');
      return new Promise<void>((r) => hang.push(r)).then(() => void res.end());
    }
    if (req.url === '/to-other-loopback') {
      res.writeHead(301, { location: `${server.url.replace('127.0.0.1', '127.0.0.2')}/ok` });
      return void res.end();
    }
    res.writeHead(200);
    res.end('a,b\n1,2\n');
  });
});
afterAll(async () => {
  hang.forEach((r) => r());
  await server.close();
});

const opts = (o: Partial<UrlFetchOptions> = {}): UrlFetchOptions => ({
  blockPrivate: false,
  allowHttp: true,
  timeoutMs: 5000,
  maxRedirects: 3,
  headers: {},
  ...o,
});
const read = async (body: AsyncIterable<Uint8Array>) => {
  let s = '';
  for await (const c of body) s += Buffer.from(c).toString();
  return s;
};

describe('fetchUrl', () => {
  it('reaches loopback outside production', async () => {
    expect(await read((await fetchUrl(`${server.url}/ok`, opts())).body)).toBe('a,b\n1,2\n');
  });

  it('refuses loopback in production, by literal address, by DNS name and after a redirect', async () => {
    const prod = opts({ blockPrivate: true });
    await expect(fetchUrl(`${server.url}/ok`, prod)).rejects.toThrow(UNREACHABLE);
    const byName = server.url.replace('127.0.0.1', 'localhost');
    await expect(fetchUrl(`${byName}/ok`, prod)).rejects.toThrow(UNREACHABLE);
    // Every hop is checked: with only 127.0.0.1 let through, the first hop is fetched and its redirect to
    // another loopback address is refused.
    const before = server.requests.length;
    await expect(
      fetchUrl(`${server.url}/to-other-loopback`, { ...prod, isBlocked: (a) => a !== '127.0.0.1' }),
    ).rejects.toThrow(UNREACHABLE);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/to-other-loopback']);
  });

  it('refuses plain http in production, and other schemes everywhere', async () => {
    await expect(fetchUrl(`${server.url}/ok`, opts({ allowHttp: false }))).rejects.toThrow(
      'Only https:// URLs can be fetched.',
    );
    await expect(fetchUrl('file:///etc/passwd', opts())).rejects.toThrow(
      'Only http:// and https:// URLs can be fetched.',
    );
  });

  it('reads a server that does not answer in time as unreachable, and one that stops mid-file as too slow', async () => {
    await expect(fetchUrl(`${server.url}/hang`, opts({ timeoutMs: 200 }))).rejects.toThrow(UNREACHABLE);
    const { body } = await fetchUrl(`${server.url}/slow-body`, opts({ timeoutMs: 200 }));
    await expect(read(body)).rejects.toThrow('The server did not send the whole file within 0 seconds.');
  });
});

describe('the rule sources get from the configuration (issue 30)', () => {
  const config = (env: Record<string, string> = {}) =>
    loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: UNWRITTEN_DATA_DIR,
      SESSION_SECRET: 'ssrf-test-session-secret-long-enough-1234',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
      ...env,
    });
  const port = () => new URL(server.url).port;

  it('refuses loopback in every form outside production too, unless SOURCES_ALLOW_NETWORKS lists it', async () => {
    const dev = fetchOptions(config(), {});
    for (const url of [
      `http://127.0.0.1:${port()}/ok`,
      `http://[::1]:${port()}/ok`,
      `http://0.0.0.0:${port()}/ok`,
      `http://2130706433:${port()}/ok`,
      `http://0x7f.1:${port()}/ok`,
      `http://localhost:${port()}/ok`,
      `http://[::ffff:127.0.0.1]:${port()}/ok`,
    ])
      await expect(fetchUrl(url, dev), url).rejects.toThrow(UNREACHABLE);
    const allowed = fetchOptions(config({ SOURCES_ALLOW_NETWORKS: '127.0.0.0/8' }), {});
    expect(await read((await fetchUrl(`${server.url}/ok`, allowed)).body)).toBe('a,b\n1,2\n');
  });

  it('answers a refused address, a closed port and a server that is not HTTP with one message', async () => {
    const allowed = fetchOptions(config({ SOURCES_ALLOW_NETWORKS: '127.0.0.0/8' }), {});
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const notHttp = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    await new Promise<void>((r) => notHttp.listen(0, '127.0.0.1', r));
    try {
      const messages = await Promise.all(
        [
          fetchUrl(`http://127.0.0.1:${port()}/ok`, fetchOptions(config(), {})),
          fetchUrl(`http://127.0.0.1:${closedPort}/`, allowed),
          fetchUrl(`http://127.0.0.1:${(notHttp.address() as AddressInfo).port}/`, allowed),
        ].map((p) =>
          p.then(
            () => 'fetched',
            (err: Error) => err.message,
          ),
        ),
      );
      expect(messages).toEqual([UNREACHABLE, UNREACHABLE, UNREACHABLE]);
    } finally {
      notHttp.close();
    }
  });
});
