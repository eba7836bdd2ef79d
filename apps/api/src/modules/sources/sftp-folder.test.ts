import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ssh2 from 'ssh2';
import { sftpFolder, type SftpOptions } from './sftp-folder.ts';
import { UNREACHABLE } from './url-fetch.ts';
import type { StoredSftp } from './sources.repo.ts';

// An SSH server (ssh2's own, in-process) that accepts any login and opens the SFTP channel, then never answers an
// SFTP request: a server that hangs after the handshake. Debian's sshd cannot be made to do that.
let server: InstanceType<typeof ssh2.Server>;
const clients: { end(): void }[] = [];
let port = 0;
const REQUESTS = [
  'OPEN',
  'READ',
  'FSTAT',
  'OPENDIR',
  'READDIR',
  'STAT',
  'LSTAT',
  'MKDIR',
  'RENAME',
  'REALPATH',
  'CLOSE',
] as const;
beforeAll(async () => {
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
  server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    clients.push(client);
    client.on('error', () => {});
    client.on('authentication', (ctx) => ctx.accept());
    client.on('ready', () =>
      client.on('session', (accept) =>
        accept().on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          // Listened to, never answered (without a listener ssh2 answers "unsupported" itself).
          for (const request of REQUESTS) sftp.on(request, () => {});
          // A file opens, then its reads (and its close) are never answered.
          sftp.removeAllListeners('OPEN');
          // ...except denied.csv, which the server refuses to open.
          sftp.on('OPEN', (reqid: number, filename: string) =>
            filename.endsWith('denied.csv')
              ? sftp.status(reqid, ssh2.utils.sftp.STATUS_CODE.PERMISSION_DENIED, 'Permission denied')
              : sftp.handle(reqid, Buffer.from('h1')),
          );
        }),
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const c of clients) c.end();
  await new Promise<void>((r) => server.close(() => r()));
});

const conn = (extra: Partial<StoredSftp> = {}): StoredSftp => ({
  kind: 'sftp',
  host: '127.0.0.1',
  port,
  username: 'u',
  auth: 'password',
  folder: '/drop',
  pattern: '*.csv',
  afterProcessing: 'move',
  hostKey: null,
  ...extra,
});
const opts = (o: Partial<SftpOptions> = {}): SftpOptions => ({
  blockPrivate: false,
  timeoutMs: 300,
  maxBytes: 1000,
  ...o,
});
const secret = { secret: 'pw', passphrase: null };

describe('sftpFolder', () => {
  it('gives up on a server that stops answering SFTP requests, listing or moving, and closes', async () => {
    const folder = await sftpFolder(conn(), secret, opts());
    await expect(folder.list()).rejects.toThrow('The SFTP server did not answer within 0 seconds.');
    await folder.close();

    const again = await sftpFolder(conn(), secret, opts());
    const item = { key: 'k', name: '/drop/a.csv', size: 1, modifiedAt: null };
    await expect(again.moveProcessed!(item)).rejects.toThrow('The SFTP server did not answer');
    await again.close();

    const reading = await sftpFolder(conn(), secret, opts());
    const drain = async () => {
      for await (const chunk of await reading.read(item)) void chunk;
    };
    await expect(drain()).rejects.toThrow('The server did not send the whole file within 0 seconds.');
    await reading.close();
  });

  it('reports a file the server refuses to open, even when the reader starts late', async () => {
    const folder = await sftpFolder(conn(), secret, opts({ timeoutMs: 5000 }));
    const body = await folder.read({ key: 'k', name: '/drop/denied.csv', size: 1, modifiedAt: null });
    // A run stores the upload row (and checks the quota) before it pulls the first bytes.
    await new Promise((r) => setTimeout(r, 100));
    const drain = async () => {
      for await (const chunk of body) void chunk;
    };
    await expect(drain()).rejects.toThrow('The file could not be read to its end (Permission denied).');
    await folder.close();
  });

  it('refuses a private host in production, by literal address and by DNS name, before connecting', async () => {
    await expect(sftpFolder(conn(), secret, opts({ blockPrivate: true }))).rejects.toThrow(UNREACHABLE);
    await expect(
      sftpFolder(conn({ host: 'localhost' }), secret, opts({ blockPrivate: true })),
    ).rejects.toThrow(UNREACHABLE);
    await expect(
      sftpFolder(conn({ host: '::ffff:127.0.0.1' }), secret, opts({ blockPrivate: true })),
    ).rejects.toThrow(UNREACHABLE);
  });
});
