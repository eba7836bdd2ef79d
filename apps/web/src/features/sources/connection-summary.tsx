import type { ReactNode } from 'react';
import type { SourceConnectionView } from '@backsignal/contracts';

const stored = (has: boolean, what: string) => (has ? `${what} stored` : `no ${what.toLowerCase()}`);

/** A saved connection as label/value pairs for the source page: never a secret, only that one is stored. */
export function connectionItems(c: SourceConnectionView): [string, ReactNode][] {
  const mono = (v: string) => <span className="break-all font-mono text-xs">{v}</span>;
  switch (c.kind) {
    case 'csv_url':
      return [
        ['URL', <span className="break-all">{c.url}</span>],
        [
          'Authentication',
          c.auth === 'none'
            ? 'None'
            : c.auth === 'header'
              ? `Header ${c.headerName} (${stored(c.hasSecret, 'Token')})`
              : `User ${c.username} (${stored(c.hasSecret, 'Password')})`,
        ],
      ];
    case 's3':
      return [
        ['Endpoint', c.endpoint ? <span className="break-all">{c.endpoint}</span> : 'AWS S3'],
        ['Bucket', `${c.bucket}${c.prefix ? ` · prefix ${c.prefix}` : ''}`],
        ['Region', c.region || 'Default'],
        [
          'Access key',
          <>
            {mono(c.accessKeyId)} ({stored(c.hasSecret, 'Secret')})
          </>,
        ],
        ['Addressing', c.pathStyle ? 'Path-style' : 'Virtual-hosted'],
      ];
    case 'sftp':
      return [
        ['Server', `${c.username}@${c.host}:${c.port}`],
        [
          'Sign in with',
          `${c.auth === 'key' ? 'Private key' : 'Password'} (${c.hasSecret ? 'stored' : 'missing'})`,
        ],
        ['Files', `${c.pattern} in ${c.folder || 'the home folder'}`],
        [
          'After a file is sent',
          c.afterProcessing === 'move' ? 'Moved into processed/' : 'Remembered by name, size and time',
        ],
        ['Host key', c.hostKey ? mono(c.hostKey) : 'Trusted at the first run'],
      ];
  }
}
