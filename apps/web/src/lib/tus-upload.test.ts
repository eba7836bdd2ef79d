import { describe, expect, it } from 'vitest';
import type { DetailedError } from 'tus-js-client';
import { TUS_CHUNK_BYTES } from '@backsignal/contracts';
import { shouldRetry, usesResumableUpload } from './tus-upload.ts';

const failure = (status?: number, body = '') =>
  ({
    originalResponse:
      status === undefined
        ? null
        : { getStatus: () => status, getBody: () => body, getHeader: () => undefined },
  }) as unknown as DetailedError;

describe('resumable uploads in the web app', () => {
  it('are used for files larger than one chunk only', () => {
    expect(usesResumableUpload(new File([new Uint8Array(10)], 'small.csv'))).toBe(false);
    const big = { size: TUS_CHUNK_BYTES + 1 } as File;
    expect(usesResumableUpload(big)).toBe(true);
  });

  it('retry a dropped connection, a server error, an offset conflict or a lock; never a refusal', () => {
    expect(shouldRetry(failure(), 0)).toBe(true);
    expect(shouldRetry(failure(502), 3)).toBe(true);
    expect(shouldRetry(failure(409), 0)).toBe(true);
    expect(shouldRetry(failure(423), 0)).toBe(true);
    expect(shouldRetry(failure(413, '{"code":"PAYLOAD_TOO_LARGE"}'), 0)).toBe(false);
    expect(shouldRetry(failure(404), 0)).toBe(false);
  });

  it('retry a stale XSRF refusal once (the refusal set a fresh cookie), not a role refusal', () => {
    const xsrf = failure(403, '{"code":"XSRF_INVALID","message":"Your session has expired."}');
    expect(shouldRetry(xsrf, 0)).toBe(true);
    expect(shouldRetry(xsrf, 1)).toBe(false);
    expect(shouldRetry(failure(403, '{"code":"FORBIDDEN"}'), 0)).toBe(false);
  });
});
