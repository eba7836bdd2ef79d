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
