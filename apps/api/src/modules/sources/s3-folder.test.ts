import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer } from '../../../test/fake-http.ts';
import { startS3Server, type S3Server } from '../../../test/s3-server.ts';
import { guardedBody } from './remote-folder.ts';
import { LISTING_TOO_LARGE, MAX_LIST_PAGE_BYTES, s3Folder, type S3Options } from './s3-folder.ts';
import { UNREACHABLE } from './url-fetch.ts';
import type { StoredS3 } from './sources.repo.ts';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server(['b']);
  await s3.put('b', 'in/a.csv', 'a,b\n1,2\n');
});
afterAll(() => s3.close());

const conn = (endpoint: string): StoredS3 => ({
  kind: 's3',
  endpoint,
  region: 'us-east-1',
  bucket: 'b',
  prefix: 'in/',
  accessKeyId: s3.accessKeyId,
  pathStyle: true,
});
const opts = (o: Partial<S3Options> = {}): S3Options => ({
  blockPrivate: false,
  allowHttp: true,
  timeoutMs: 5000,
  maxBytes: 1000,
  ...o,
});

describe('s3Folder', () => {
  it('lists and reads a loopback endpoint outside production', async () => {
    const folder = await s3Folder(conn(s3.endpoint), s3.secretAccessKey, opts());
    const [item] = await folder.list();
    expect(item).toMatchObject({ name: 'in/a.csv', size: 8 });
    let text = '';
    for await (const c of await folder.read(item!)) text += Buffer.from(c).toString();
    expect(text).toBe('a,b\n1,2\n');
    await folder.close();
  });

  it('refuses a private endpoint in production, by literal address and by DNS name', async () => {
    const prod = opts({ blockPrivate: true, allowHttp: true });
    await expect(s3Folder(conn(s3.endpoint), 'x', prod)).rejects.toThrow(UNREACHABLE);
    const byName = await s3Folder(conn(s3.endpoint.replace('127.0.0.1', 'localhost')), 'x', prod);
    await expect(byName.list()).rejects.toThrow(UNREACHABLE);
    await byName.close();
    await expect(s3Folder(conn(s3.endpoint), 'x', opts({ allowHttp: false }))).rejects.toThrow(
      'The endpoint must start with https://.',
    );
  });
});

describe('s3Folder listing', () => {
  it('gives the whole listing one deadline, however many pages the bucket answers', async () => {
    // A bucket that answers every page, slowly, and always has more.
    let pages = 0;
    const slow = await fakeServer(async (_req, res) => {
      pages++;
      await new Promise((r) => setTimeout(r, 50));
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
          `<Name>b</Name><Prefix>in/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>` +
          `<NextContinuationToken>t${pages}</NextContinuationToken><Contents><Key>in/${pages}.csv</Key>` +
          `<LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>"e${pages}"</ETag><Size>5</Size></Contents>` +
          `</ListBucketResult>`,
      );
    });
    const folder = await s3Folder(conn(slow.url), 'secret', opts({ timeoutMs: 300 }));
    try {
      await expect(folder.list()).rejects.toThrow(
        'The bucket did not list its objects within 0 seconds: use a prefix with fewer objects.',
      );
      expect(pages).toBeLessThan(50);
    } finally {
      await folder.close();
      await slow.close();
    }
  });
});

describe('s3Folder listing bounds (issue 30)', () => {
  const head =
    `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
    `<Name>b</Name><Prefix>in/</Prefix><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>`;
  const entry = (i: number) =>
    `<Contents><Key>in/${i}.csv</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified>` +
    `<ETag>"e${i}"</ETag><Size>5</Size></Contents>`;

  it('cuts a listing page past its byte bound, reading a few MB of a hostile 1 GB answer', async () => {
    let served = 0;
    const hostile = await fakeServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(head);
      // 1 GB of entries, written as the client reads them: it stops the stream long before the end.
      const block = Buffer.from(Array.from({ length: 500 }, (_, i) => entry(i)).join(''));
      while (served < 1024 ** 3 && !res.destroyed) {
        served += block.length;
        if (!res.write(block)) await new Promise((r) => res.once('drain', r).once('close', r));
      }
      res.end();
    });
    const folder = await s3Folder(conn(hostile.url), 'secret', opts({ timeoutMs: 20_000 }));
    try {
      await expect(folder.list()).rejects.toThrow(LISTING_TOO_LARGE);
      // The bound plus what sat in socket buffers when the client let go; nowhere near the gigabyte.
      expect(served).toBeLessThan(MAX_LIST_PAGE_BYTES * 8);
    } finally {
      await folder.close();
      await hostile.close();
    }
  });

  it('refuses a page with more keys than it asked for', async () => {
    const many = await fakeServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(head + Array.from({ length: 1001 }, (_, i) => entry(i)).join('') + '</ListBucketResult>');
    });
    const folder = await s3Folder(conn(many.url), 'secret', opts());
    try {
      await expect(folder.list()).rejects.toThrow(LISTING_TOO_LARGE);
      expect(many.requests[0]!.url).toContain('max-keys=1000');
    } finally {
      await folder.close();
      await many.close();
    }
  });
});

describe('guardedBody', () => {
  async function* chunks(sizes: number[]) {
    for (const n of sizes) yield new Uint8Array(n);
  }
  const drain = async (body: AsyncIterable<Uint8Array>) => {
    for await (const c of body) void c;
  };

  it('stops a body that grows past the limit, whatever the listing said', async () => {
    let cleaned = false;
    const body = guardedBody(chunks([600, 600]), {
      maxBytes: 1000,
      timeoutMs: 5000,
      abort: () => {},
      cleanup: () => void (cleaned = true),
    });
    await expect(drain(body)).rejects.toThrow('File is too large.');
    expect(cleaned).toBe(true);
  });

  it('gives up on a transfer that takes longer than the timeout', async () => {
    // Like a socket: the transfer hangs until the abort destroys it.
    let cut: (e: Error) => void = () => {};
    async function* hanging() {
      yield new Uint8Array(10);
      await new Promise((_, reject) => (cut = reject));
    }
    const body = guardedBody(hanging(), {
      maxBytes: 1000,
      timeoutMs: 50,
      abort: () => cut(new Error('aborted')),
    });
    await expect(drain(body)).rejects.toThrow('The server did not send the whole file within 0 seconds.');
  });
});
