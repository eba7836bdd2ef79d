import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@backsignal/contracts';
import { emptyConnection, fromView, missingFields } from './connection-form.ts';

describe('connection form', () => {
  it('says what each kind still needs before a fetch', () => {
    expect(missingFields(emptyConnection('s3'), false)).toEqual({
      bucket: 'Enter the bucket name.',
      accessKeyId: 'Enter the access key ID.',
      secret: 'Enter the secret access key.',
    });
    expect(missingFields({ ...emptyConnection('sftp'), auth: 'key' } as never, false)).toEqual({
      host: 'Enter the server name.',
      username: 'Enter the user name.',
      secret: 'Paste the private key.',
    });
    expect(missingFields(emptyConnection('csv_url'), false)).toEqual({
      url: 'Enter the URL of the CSV file.',
    });
  });

  it('asks for a port from 1 to 65535 when the SFTP port is cleared or out of range', () => {
    const sftp = { ...emptyConnection('sftp'), host: 'h', username: 'u', secret: 's' } as never as {
      port: number;
    };
    expect(missingFields({ ...sftp, port: 22 } as never, false)).toEqual({});
    for (const port of [0, 70000, 2.5])
      expect(missingFields({ ...sftp, port } as never, false)).toEqual({
        port: 'Enter a port from 1 to 65535.',
      });
  });

  it('keeps a stored secret: an empty secret field is not missing', () => {
    const s3 = { ...emptyConnection('s3'), bucket: 'b', accessKeyId: 'AKIA' } as never;
    expect(missingFields(s3, true)).toEqual({});
  });

  it('lets a masked URL value stand for the stored one only at the saved URL', () => {
    const M = SECRET_MASK;
    const saved = `https://b.example.com/f.csv?X-Amz-Credential=${M}&X-Amz-Signature=${M}`;
    const conn = (url: string) => ({ kind: 'csv_url' as const, url, auth: 'none' as const });
    expect(missingFields(conn(`${saved}&week=2`), false, saved)).toEqual({});
    expect(missingFields(conn(saved.replace('/f.csv', '/g.csv')), false, saved)).toEqual({
      url: 'Enter the values of X-Amz-Credential, X-Amz-Signature in the URL again: stored values are kept only for the same URL.',
    });
    expect(missingFields(conn(`https://b.example.com/f.csv?token=${M}`), false)).toEqual({
      url: 'Enter the value of token in the URL.',
    });
    expect(missingFields(conn('https://b.example.com/g.csv?token=new'), false, saved)).toEqual({});
  });

  it('edits a saved connection without its secret flag', () => {
    const view = {
      kind: 'sftp' as const,
      host: 'sftp.example.com',
      port: 22,
      username: 'shop',
      auth: 'password' as const,
      folder: '/out',
      pattern: '*.csv',
      afterProcessing: 'move' as const,
      hostKey: 'SHA256:abc',
      hasSecret: true,
    };
    const { hasSecret: _, ...rest } = view;
    expect(fromView(view)).toEqual(rest);
  });
});
