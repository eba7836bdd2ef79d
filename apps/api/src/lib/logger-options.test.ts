import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger-options.ts';

describe('redactUrl', () => {
  it.each([
    ['/auth/verify?token=abc123', '/auth/verify?token=[redacted]'],
    ['/reset-password?x=1&token=abc&y=2', '/reset-password?x=1&token=[redacted]&y=2'],
    ['/api/uploads?limit=10&offset=0', '/api/uploads?limit=10&offset=0'],
    ['/auth/verify?TOKEN=abc#top', '/auth/verify?TOKEN=[redacted]#top'],
  ])('%s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});
