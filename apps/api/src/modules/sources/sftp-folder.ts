import { createHash } from 'node:crypto';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { posix } from 'node:path';
import { globMatcher } from '@backsignal/core';
import { guardedBody, type RemoteFolder, type RemoteItem } from './remote-folder.ts';
import type { StoredSftp } from './sources.repo.ts';
import { isBlockedAddress } from './ssrf.ts';
import { FetchFailure, guardedLookup, networkReason, UNREACHABLE } from './url-fetch.ts';

export interface SftpOptions {
  blockPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  isBlocked?: (address: string) => boolean;
}

/** The sealed secret of an SFTP source: a password, or a private key with its passphrase. */
export interface SftpSecret {
  secret: string;
  passphrase: string | null;
}

const CONNECT_TIMEOUT_MS = 20_000;
/** How long a file's close may take before the connection is cut. */
const CLOSE_GRACE_MS = 5_000;

/** The server's host key changed since it was trusted: a run stops rather than talk to another server. */
export class HostKeyChanged extends FetchFailure {
  constructor(
    readonly trusted: string,
    readonly seen: string,
  ) {
    super(
      `The SFTP server's host key changed: Backsignal trusted ${trusted}, the server now shows ${seen}. ` +
        'If the server was reinstalled, edit the source, test the fetch and trust the new key.',
    );
  }
}

/** OpenSSH's fingerprint form: SHA256: and the unpadded base64 of the key blob's SHA-256. */
export const hostKeyFingerprint = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** The folder as the owner wrote it, for messages. */
export const folderName = (c: Pick<StoredSftp, 'folder'>) => c.folder || 'the home folder';

export function parseSftpSecret(text: string | null): SftpSecret {
  if (!text) return { secret: '', passphrase: null };
  try {
    const v = JSON.parse(text) as SftpSecret;
    return { secret: v.secret ?? '', passphrase: v.passphrase ?? null };
  } catch {
    return { secret: text, passphrase: null };
  }
}

/** Our own TCP socket, connected through the guarded lookup, so the SSRF rule holds for SFTP hosts too. */
function openSocket(c: StoredSftp, opts: SftpOptions): Promise<Socket> {
  const isBlocked = opts.isBlocked ?? isBlockedAddress;
  if (opts.blockPrivate && isIP(c.host) && isBlocked(c.host)) throw new FetchFailure(UNREACHABLE);
  return new Promise((resolve, reject) => {
    const sock = netConnect({
      host: c.host,
      port: c.port,
      lookup: guardedLookup(opts.blockPrivate, isBlocked),
      timeout: CONNECT_TIMEOUT_MS,
    });
    sock.once('connect', () => {
      sock.setTimeout(0);
      // As ssh2 does on its own sockets: SFTP's small request/answer packets wait on Nagle otherwise.
      sock.setNoDelay(true);
      resolve(sock);
    });
    sock.once('timeout', () => {
      sock.destroy();
      reject(new FetchFailure(`The server did not answer within ${CONNECT_TIMEOUT_MS / 1000} seconds.`));
    });
    sock.once('error', (err) =>
      reject(err instanceof FetchFailure ? err : new FetchFailure(networkReason(err))),
    );
  });
}

function sftpReason(err: unknown, c: StoredSftp): string {
  if (err instanceof FetchFailure) return err.message;
  const message = (err as Error).message ?? '';
  if (/authentication methods failed/i.test(message))
    return c.auth === 'key'
      ? `The server refused the private key for user "${c.username}".`
      : `The server refused the user name or password for user "${c.username}".`;
  if (/parse privateKey|privateKey value|Encrypted private OpenSSH key|passphrase/i.test(message))
    return 'The private key could not be read: check that it is complete and that the passphrase is right.';
  if (/Timed out while waiting for handshake/i.test(message)) return UNREACHABLE;
  if (/No such file|ENOENT|does not exist/i.test(message))
    return `The folder ${folderName(c)} does not exist on the server.`;
  if (/Permission denied|EACCES/i.test(message)) return `The server refused access to ${folderName(c)}.`;
  if ((err as { code?: string }).code && typeof (err as { code?: unknown }).code === 'string')
    return networkReason(err);
  return `The SFTP server could not be read (${message.replace(/^\w+: /, '')}).`;
}

/**
 * An SFTP folder through ssh2-sftp-client on our own socket. The host key is checked against the trusted one
 * (trust on first use: none trusted yet accepts any and reports it in `hostKey`).
 */
export async function sftpFolder(
  c: StoredSftp,
  secret: SftpSecret,
  opts: SftpOptions,
): Promise<RemoteFolder & { hostKey: string }> {
  const sock = await openSocket(c, opts);
  // Loaded on first use: ssh2 costs ~4 MB of resident memory that a server without SFTP sources never needs.
  const { default: SftpClient } = await import('ssh2-sftp-client');
  const client = new SftpClient('backsignal');
  let seen = '';
  try {
    await client.connect({
      sock,
      username: c.username,
      ...(c.auth === 'key'
        ? { privateKey: secret.secret, ...(secret.passphrase && { passphrase: secret.passphrase }) }
        : { password: secret.secret }),
      readyTimeout: CONNECT_TIMEOUT_MS,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return !c.hostKey || c.hostKey === seen;
      },
    });
  } catch (err) {
    sock.destroy();
    await client.end().catch(() => {});
    if (c.hostKey && seen && seen !== c.hostKey) throw new HostKeyChanged(c.hostKey, seen);
    throw new FetchFailure(sftpReason(err, c));
  }
  const matches = globMatcher(c.pattern);
  const fail = (err: unknown): never => {
    throw new FetchFailure(sftpReason(err, c));
  };
  // ssh2 waits for an SFTP answer forever: a server that stops answering (connection open, no reply) would hold
  // the run, which keeps beating, and so the source, for good. Each request gets the fetch timeout, then the
  // connection is cut.
  const answer = <T>(request: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        sock.destroy();
        reject(
          new FetchFailure(
            `The SFTP server did not answer within ${Math.round(opts.timeoutMs / 1000)} seconds.`,
          ),
        );
      }, opts.timeoutMs);
      timer.unref();
    });
    return Promise.race([request, late]).finally(() => clearTimeout(timer));
  };
  // A relative folder is under the user's home folder (the session's starting directory), as in any SFTP client.
  let folder = posix.normalize(c.folder);
  if (!c.folder.startsWith('/')) {
    const home = await answer(client.cwd()).catch(async (err: unknown) => {
      if (!sock.destroyed) await answer(client.end()).catch(() => {});
      sock.destroy();
      return fail(err);
    });
    folder = posix.join(home, c.folder || '.');
  }

  const listIn = async (dir: string) =>
    (await answer(client.list(dir)).catch(fail))
      .filter((e) => e.type === '-' && matches(e.name))
      .map((e): RemoteItem => ({
        key: JSON.stringify(['sftp', posix.join(dir, e.name), e.size, e.modifyTime]),
        name: posix.join(dir, e.name),
        size: e.size,
        modifiedAt: new Date(e.modifyTime),
      }));

  return {
    hostKey: seen,
    list: () => listIn(folder),
    async listProcessed() {
      const dir = posix.join(folder, 'processed');
      return (await answer(client.exists(dir)).catch(fail)) ? listIn(dir) : [];
    },
    async read(item) {
      // Opened when the reader starts pulling, not before: an open the server refuses (permission denied) while
      // nobody listened to the stream went unheard, and the stream, errored but never closed, hung its reader
      // and the run for good. The handle is closed before the connection ends: a close still in flight when the
      // session ends would surface as an uncaught "No response from server".
      let stream: ReturnType<typeof client.createReadStream> | undefined;
      let closed = Promise.resolve();
      async function* opened(): AsyncGenerator<Uint8Array> {
        const s = client.createReadStream(item.name);
        stream = s;
        closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
        yield* s as AsyncIterable<Uint8Array>;
      }
      return guardedBody(opened(), {
        maxBytes: opts.maxBytes,
        timeoutMs: opts.timeoutMs,
        // The stream waits for a read in flight before it ends: only cutting the connection ends that read.
        abort: () => {
          stream?.destroy(new Error('timed out'));
          sock.destroy();
        },
        cleanup: async () => {
          if (!stream) return;
          stream.on('error', () => {});
          stream.destroy();
          // A server that stopped answering never confirms the close: the connection is cut instead.
          let timer: NodeJS.Timeout | undefined;
          const gaveUp = new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), Math.min(opts.timeoutMs, CLOSE_GRACE_MS));
          });
          if (await Promise.race([closed.then(() => false), gaveUp])) sock.destroy();
          clearTimeout(timer);
        },
      });
    },
    async moveProcessed(item) {
      const dir = posix.join(posix.dirname(item.name), 'processed');
      if (!(await answer(client.exists(dir)).catch(fail))) await answer(client.mkdir(dir, true)).catch(fail);
      const base = posix.basename(item.name);
      const target = posix.join(dir, base);
      // SFTP rename does not overwrite: a name already in processed/ gets the time appended.
      const free = (await answer(client.exists(target)).catch(fail))
        ? posix.join(dir, `${base}.${new Date().toISOString().replace(/[:.]/g, '-')}`)
        : target;
      await answer(client.rename(item.name, free)).catch(fail);
    },
    async close() {
      // end() waits for the server's goodbye; one that stopped answering must not hold the run here either.
      if (!sock.destroyed) await answer(client.end()).catch(() => {});
      sock.destroy();
    },
  };
}
