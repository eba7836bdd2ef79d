import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/context.ts';
import { sealToken } from '../pixels/token-crypto.ts';
import { openSecrets, sealSecrets, secretAad } from './source-connection.ts';

const config = testConfig();
const row = { workspaceId: 'u1', id: 's1' };

describe('source secrets envelope (decision 0102)', () => {
  it.each([
    ['a header token', 'Bearer abc'],
    ['an S3 secret key', 'wJalrXUtnFEMI/K7MDENG'],
    ['an SFTP key with its passphrase', JSON.stringify({ secret: '-----BEGIN KEY-----', passphrase: 'p' })],
    // An old token that happens to look like the new envelope is still the token.
    ['a token shaped like the envelope', JSON.stringify({ secret: 'x', query: [['sig', 'y']] })],
  ])('opens %s sealed in the format before it, unchanged', (_, text) => {
    const sealed = sealToken(config.tokenKeys, text, secretAad(row.workspaceId, row.id));
    expect(openSecrets(config, { ...row, sealed })).toEqual({ secret: text, query: [] });
  });

  it('holds the token and the query values, bound to the source', () => {
    const secrets = { secret: 'Bearer abc', query: [{ name: 'X-Amz-Signature', value: 'abc%2F1' }] };
    const sealed = sealSecrets(config, secrets, row.workspaceId, row.id)!;
    expect(Buffer.from(sealed.ciphertext).toString('latin1')).not.toContain('abc%2F1');
    expect(openSecrets(config, { ...row, sealed })).toEqual(secrets);
    expect(() => openSecrets(config, { workspaceId: 'u1', id: 's2', sealed })).toThrow();
    expect(sealSecrets(config, { secret: null, query: [] }, row.workspaceId, row.id)).toBeNull();
    expect(openSecrets(config, { ...row, sealed: null })).toEqual({ secret: null, query: [] });
  });
});
