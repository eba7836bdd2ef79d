import { ApiError } from './api.ts';

/**
 * Spec §8: the server's message, else the client error's message (only when `useClientMessage`), else the
 * fallback text.
 */
export function errorMessage(err: unknown, fallback: string, useClientMessage = false): string {
  if (err instanceof ApiError && err.message) return err.message;
  if (useClientMessage && err instanceof Error && err.message && !(err instanceof ApiError))
    return err.message;
  return fallback;
}

/**
 * A daily quota or rate limit says when to try again, so it is shown as the server words it; any other failure
 * keeps the screen's own spec §8 text.
 */
export function limitOr(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.code === 'RATE_LIMITED' ? err.message : fallback;
}

/** The server's message for one field of a form (a 400's `fields`), else as errorMessage. */
export function fieldError(err: unknown, field: string, fallback: string): string {
  return err instanceof ApiError && err.fields?.[field] ? err.fields[field] : errorMessage(err, fallback);
}
