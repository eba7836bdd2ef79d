import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger-options.ts';

describe('redactUrl', () => {
  it.each([
    ['/auth/verify?token=abc123', '/auth/verify?token=[redacted]'],
    ['/reset-password?x=1&token=abc&y=2', '/reset-password?x=1&token=[redacted]&y=2'],
    ['/api/uploads?limit=10&offset=0', '/api/uploads?limit=10&offset=0'],
    ['/auth/verify?TOKEN=abc#top', '/auth/verify?TOKEN=[redacted]#top'],
    [
      '/f.csv?X-Amz-Credential=AKIA%2Fx&X-Amz-Expires=60&X-Amz-Signature=abc',
      '/f.csv?X-Amz-Credential=[redacted]&X-Amz-Expires=60&X-Amz-Signature=[redacted]',
    ],
    ['/cb?code=abc&state=1&api_key=k', '/cb?code=[redacted]&state=1&api_key=[redacted]'],
  ])('%s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});
