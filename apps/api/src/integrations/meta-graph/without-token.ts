/**
 * Meta quotes a token it cannot parse in its error ("Malformed access token EAAB…"), and its answers are kept:
 * stored with the batch, shown on the summary, written into failed-rows files. The token is write-only
 * (security.md §2.10), so it is cut out of every answer before anything reads it: the token itself, and
 * anything shaped like a Meta token (they start "EAA"), which a proxy or an older answer might quote.
 */
const META_TOKEN = /EAA[A-Za-z0-9]{16,}/g;
export const TOKEN_REMOVED = '[access token removed]';

export function withoutToken(text: string, token: string): string {
  const cut = token.length >= 8 ? text.split(token).join(TOKEN_REMOVED) : text;
  return cut.replace(META_TOKEN, TOKEN_REMOVED);
}
