import { describe, expect, it } from 'vitest';
import { sameSecretTarget } from './sources.ts';

describe('sameSecretTarget', () => {
  const sftp = {
    kind: 'sftp',
    host: 'sftp.example.com',
    port: 22,
    username: 'crm',
    auth: 'password',
  } as const;
  const s3 = { kind: 's3', endpoint: 'https://r2.example.com', accessKeyId: 'AKIA1' } as const;
  const url = {
    kind: 'csv_url',
    url: 'https://crm.example.com/export.csv',
    auth: 'header',
    headerName: null,
    username: null,
  } as const;

  it('keeps a secret for the same server, user and auth, whatever the folder, or the same URL whatever the query', () => {
    expect(sameSecretTarget(sftp, { ...sftp, host: 'SFTP.example.com' })).toBe(true);
    expect(sameSecretTarget(s3, { ...s3, endpoint: 'https://r2.example.com/' })).toBe(true);
    expect(sameSecretTarget(url, { ...url, url: 'https://CRM.example.com/export.csv?x=1' })).toBe(true);
    expect(sameSecretTarget(url, { ...url, headerName: 'Authorization' })).toBe(true);
  });

  it.each([
    ['another SFTP host', sftp, { ...sftp, host: 'evil.example.com' }],
    ['another SFTP port', sftp, { ...sftp, port: 2222 }],
    ['another SFTP user', sftp, { ...sftp, username: 'root' }],
    ['password to key', sftp, { ...sftp, auth: 'key' }],
    ['another S3 endpoint', s3, { ...s3, endpoint: 'https://evil.example.com' }],
    ['AWS instead of an endpoint', s3, { ...s3, endpoint: '' }],
    ['another access key ID', s3, { ...s3, accessKeyId: 'AKIA2' }],
    ['another origin', url, { ...url, url: 'https://evil.example.com/export.csv' }],
    // A test fetch of a saved source to a path the user typed (issue 30): on a shared host, someone else's file.
    [
      'another path on the same site',
      url,
      { ...url, url: 'https://crm.example.com/someone-else/export.csv' },
    ],
    ['http instead of https', url, { ...url, url: 'http://crm.example.com/export.csv' }],
    ['another header', url, { ...url, headerName: 'X-Forwarded-Token' }],
    ['another kind', sftp, s3],
  ] as const)('asks for it again for %s', (_, stored, next) => {
    expect(sameSecretTarget(stored, next)).toBe(false);
  });
});
