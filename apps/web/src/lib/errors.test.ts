import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { errorMessage, limitOr } from './errors.ts';

describe('error texts', () => {
  const limit = new ApiError(
    429,
    'RATE_LIMITED',
    'Daily limit reached: at most 5 rows validated in 24 hours.',
  );
  const server = new ApiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');

  it('errorMessage: the server’s message, else the fallback', () => {
    expect(errorMessage(server, 'Failed to validate uploaded data')).toBe(server.message);
    expect(errorMessage(new Error('offline'), 'Failed')).toBe('Failed');
    expect(errorMessage(new Error('offline'), 'Failed', true)).toBe('offline');
  });

  it('limitOr: a limit’s own message, anything else the screen’s text', () => {
    expect(limitOr(limit, 'Could not generate report.')).toBe(limit.message);
    expect(limitOr(server, 'Could not generate report.')).toBe('Could not generate report.');
    expect(limitOr(new TypeError('Failed to fetch'), 'Could not generate report.')).toBe(
      'Could not generate report.',
    );
  });
});
