import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

const SSHD = '/usr/sbin/sshd';
/** Chroot folders must be root-owned all the way up, so not under the world-writable /tmp. */
const BASE = '/var/lib/backsignal-sftp-tests';

/** The SFTP tests need Debian's sshd and root (a throwaway user, a chroot): said loudly, never skipped. */
export function assertSftpPrerequisites() {
  if (!existsSync(SSHD))
    throw new Error(
      `The SFTP tests need Debian's OpenSSH server and ${SSHD} is missing: install openssh-server (apt-get install -y openssh-server).`,
    );
  if (process.getuid?.() !== 0)
    throw new Error('The SFTP tests run as root: they create a throwaway system user and a chroot for sshd.');
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Waits for the SSH banner: sshd is listening and answering. */
async function banner(port: number, proc: ChildProcess, log: () => string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (proc.exitCode !== null) throw new Error(`sshd exited (${proc.exitCode}):\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1');
      sock.once('data', (d) => {
        sock.destroy();
        resolve(d.toString().startsWith('SSH-'));
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`sshd did not answer on port ${port}:\n${log()}`);
}

// Two KDF rounds instead of 16: a passphrase costs ssh2's JavaScript bcrypt ~1 s of CPU per connection at 16.
const keygen = (file: string, passphrase = '') =>
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    'ed25519',
    '-a',
    '2',
    '-N',
    passphrase,
    '-C',
    'backsignal-test',
    '-f',
    file,
  ]);

/**
 * Debian's sshd on a free loopback port with its own config, host key and a throwaway system user (random
 * password and an ed25519 key with a passphrase), chrooted to a folder with `drop/` writable by that user and
 * SFTP only (ForceCommand internal-sftp). `close()` stops it and removes the user and the folders.
 */
export async function startSftpServer() {
  assertSftpPrerequisites();
  const id = randomBytes(4).toString('hex');
  const dir = join(BASE, id);
  const root = join(dir, 'root');
  const user = `bssftp${id}`;
  const password = randomBytes(12).toString('base64url');
  const passphrase = randomBytes(8).toString('hex');
  mkdirSync(join(root, 'drop'), { recursive: true, mode: 0o755 });
  execFileSync('useradd', [
    '--system',
    '--no-create-home',
    '--home-dir',
    '/',
    '--shell',
    '/usr/sbin/nologin',
    user,
  ]);
  execFileSync('chpasswd', { input: `${user}:${password}\n` });
  const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
  chownSync(join(root, 'drop'), uid, gid);
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'user_key'), passphrase);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AllowUsers ${user}`,
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      `ChrootDirectory ${root}`,
      'ForceCommand internal-sftp',
      'Subsystem sftp internal-sftp',
      'AllowTcpForwarding no',
      'X11Forwarding no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );

  let proc: ChildProcess;
  let log = '';
  const start = async () => {
    log = '';
    proc = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (log += d));
    proc.stderr!.on('data', (d) => (log += d));
    await banner(port, proc, () => log);
  };
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  await start();

  const drop = join(root, 'drop');
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    privateKey: readFileSync(join(dir, 'user_key'), 'utf8'),
    passphrase,
    /** The folder as the SFTP user sees it. */
    folder: '/drop',
    /** Writes a file into the user's folder with a given modification time (seconds order the backlog). */
    put(path: string, body: string, modifiedAt = new Date()) {
      const file = join(drop, path);
      // Folders the user can write in (processed/ is created by the client inside them).
      const made = mkdirSync(join(file, '..'), { recursive: true });
      if (made) for (let d = join(file, '..'); d.startsWith(made); d = join(d, '..')) chownSync(d, uid, gid);
      writeFileSync(file, body);
      chownSync(file, uid, gid);
      utimesSync(file, modifiedAt, modifiedAt);
    },
    exists: (path: string) => existsSync(join(drop, path)),
    /** The host key's fingerprint as OpenSSH prints it (SHA256:…), for checking what a client was shown. */
    hostKeyFingerprint() {
      const blob = Buffer.from(readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ')[1]!, 'base64');
      return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
    },
    /** A file the SFTP user sees listed but may not read (mode 000). */
    lock: (path: string) => chmodSync(join(drop, path), 0),
    /** A reinstalled server: a new host key, same port. */
    async newHostKey() {
      await stop();
      rmSync(join(dir, 'host_key'));
      rmSync(join(dir, 'host_key.pub'));
      keygen(join(dir, 'host_key'));
      await start();
    },
    async close() {
      await stop();
      try {
        execFileSync('userdel', [user]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
export type SftpServer = Awaited<ReturnType<typeof startSftpServer>>;
