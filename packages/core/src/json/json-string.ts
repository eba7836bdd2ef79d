// What JSON.stringify writes escaped: a quote, a backslash, control characters and lone surrogates (any
// surrogate is left to it, paired or not).
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON.stringify(s), without the call for the usual string that has nothing to escape: a quoted copy of it.
 * Every derived event_id and every written event puts several strings in JSON text.
 */
export const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/**
 * jsonString(s) without its two quotes, for text that writes them into its own constant parts: in
 * `["event_name","${jsonStringBody(name)}"]` each string costs one concatenation fewer on each side.
 */
export const jsonStringBody = (s: string): string =>
  NEEDS_ESCAPE.test(s) ? JSON.stringify(s).slice(1, -1) : s;
