import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer } from '../../../test/fake-http.ts';
import { fetchUrl, PRIVATE_ADDRESS, type UrlFetchOptions } from './url-fetch.ts';

let server: Awaited<ReturnType<typeof fakeServer>>;
const hang: (() => void)[] = [];
beforeAll(async () => {
  server = await fakeServer((req, res) => {
    if (req.url === '/hang') return new Promise<void>((r) => hang.push(r)).then(() => void res.end());
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
    await expect(fetchUrl(`${server.url}/ok`, prod)).rejects.toThrow(PRIVATE_ADDRESS);
    const byName = server.url.replace('127.0.0.1', 'localhost');
    await expect(fetchUrl(`${byName}/ok`, prod)).rejects.toThrow(PRIVATE_ADDRESS);
    // Every hop is checked: with only 127.0.0.1 let through, the first hop is fetched and its redirect to
    // another loopback address is refused.
    const before = server.requests.length;
    await expect(
      fetchUrl(`${server.url}/to-other-loopback`, { ...prod, isBlocked: (a) => a !== '127.0.0.1' }),
    ).rejects.toThrow(PRIVATE_ADDRESS);
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

  it('gives up on a server that does not answer in time', async () => {
    await expect(fetchUrl(`${server.url}/hang`, opts({ timeoutMs: 200 }))).rejects.toThrow(
      'The server did not send the whole file within 0 seconds.',
    );
  });
});
