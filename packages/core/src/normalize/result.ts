/**
 * A normalised value, or why the value cannot be used. `note` says what was corrected beyond routine
 * trimming and lowercasing, in words a marketer understands.
 */
export type Normalized = { ok: true; value: string; note?: string } | { ok: false; reason: string };

export const ok = (value: string, note?: string): Normalized =>
  note ? { ok: true, value, note } : { ok: true, value };
export const unusable = (reason: string): Normalized => ({ ok: false, reason });

/**
 * s.trim(), without the call for the usual value that starts and ends with a visible ASCII character (trim's
 * whitespace is all control, space or non-ASCII): values are trimmed at several steps, for every cell.
 */
export function trimmed(s: string): string {
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127 ? s : s.trim();
}

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
export const HAS_ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/;

/**
 * Meta's common first steps: trim (JS trim, which covers NBSP and U+3000), drop zero-width characters. Tested
 * before replacing: a global replace that finds nothing costs more than the test, and it usually finds nothing.
 */
export const clean = (raw: string): string =>
  trimmed(HAS_ZERO_WIDTH.test(raw) ? raw.replace(ZERO_WIDTH, '') : raw);

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** SHA-256 of the empty string: a "hash of nothing" that must never be sent. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** A value that already is a SHA-256 digest is passed through lowercased, never hashed twice. */
export function alreadyHashed(raw: string): Normalized | null {
  const v = clean(raw).toLowerCase();
  if (!SHA256_HEX.test(v)) return null;
  if (v === EMPTY_SHA256) return unusable('is the hash of an empty value');
  return ok(v);
}
