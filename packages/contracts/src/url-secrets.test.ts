import { describe, expect, it } from 'vitest';
import { sameUrlTarget } from './sources.ts';
import { fillUrlSecrets, isSecretParam, maskedParams, SECRET_MASK, splitUrlSecrets } from './url-secrets.ts';

const M = SECRET_MASK;

describe('splitUrlSecrets', () => {
  it('masks the values of secret parameters whatever their case, and keeps the rest as written', () => {
    const url =
      'https://b.s3.amazonaws.com/a%20b.csv?X-Amz-Credential=AKIA%2F2026&x-amz-date=20261201&X-AMZ-SIGNATURE=abc&week=48#top';
    expect(splitUrlSecrets(url)).toEqual({
      url: `https://b.s3.amazonaws.com/a%20b.csv?X-Amz-Credential=${M}&x-amz-date=20261201&X-AMZ-SIGNATURE=${M}&week=48#top`,
      params: [
        { name: 'X-Amz-Credential', value: 'AKIA%2F2026' },
        { name: 'X-AMZ-SIGNATURE', value: 'abc' },
      ],
    });
  });

  it.each([
    'sig',
    'Signature',
    'token',
    'access_token',
    'key',
    'API_KEY',
    'apikey',
    'secret',
    'password',
    'auth',
    'code',
    'X-Amz-Security-Token',
    'X-Goog-Signature',
    'api%5Fkey',
  ])('treats %s as a secret', (name) => expect(isSecretParam(name)).toBe(true));

  it.each(['output', 'gid', 'week', 'X-Amz-Date', 'X-Amz-Expires', 'tokens', 'keyword'])(
    'leaves %s alone',
    (name) => expect(isSecretParam(name)).toBe(false),
  );

  it('answers a masked value as null (the stored one is meant), and leaves empty values and bare names', () => {
    expect(splitUrlSecrets(`https://x.test/f.csv?token=${M}&key=&sig&code=${encodeURIComponent(M)}`)).toEqual(
      {
        url: `https://x.test/f.csv?token=${M}&key=&sig&code=${M}`,
        params: [
          { name: 'token', value: null },
          { name: 'code', value: null },
        ],
      },
    );
    expect(maskedParams(`https://x.test/f.csv?token=${M}&token=${M}&key=1`)).toEqual(['token']);
    expect(splitUrlSecrets('https://x.test/f.csv')).toEqual({ url: 'https://x.test/f.csv', params: [] });
  });
});

describe('fillUrlSecrets', () => {
  it('puts each value back by name and order, and names the masks it has no value for', () => {
    const masked = `https://x.test/f.csv?token=${M}&a=1&TOKEN=${M}&sig=${M}`;
    expect(
      fillUrlSecrets(masked, [
        { name: 'token', value: 'one' },
        { name: 'Token', value: 'two' },
      ]),
    ).toEqual({ url: `https://x.test/f.csv?token=one&a=1&TOKEN=two&sig=${M}`, missing: ['sig'] });
  });

  it('gives back the URL that was split', () => {
    const url = 'https://x.test/f.csv?sig=a%2Bb&output=csv&api_key=k#frag';
    const { url: masked, params } = splitUrlSecrets(url);
    const values = params.map((p) => ({ name: p.name, value: p.value! }));
    expect(fillUrlSecrets(masked, values)).toEqual({ url, missing: [] });
  });
});

describe('sameUrlTarget', () => {
  it('compares scheme, host and path, not the query', () => {
    expect(sameUrlTarget('https://X.test/f.csv?sig=1', `https://x.test/f.csv?sig=${M}`)).toBe(true);
    expect(sameUrlTarget('https://x.test/f.csv?sig=1', 'https://x.test/g.csv?sig=1')).toBe(false);
    expect(sameUrlTarget('https://x.test/f.csv', 'https://y.test/f.csv')).toBe(false);
  });
});
