import type { FieldDef } from './catalogue.ts';

/**
 * The longest value a mapped cell may hold for each customer field: past it no real value exists, so the cell
 * is a paste or export accident (a whole note, a list of addresses, a column mapped by mistake). Such a row is
 * an error: the value is never cut to fit and hashed (a hash of half a value matches nobody), nor dropped as a
 * correction. Decision 0065 gives the reasons for each number. A SHA-256 digest (64 hex characters) in a field
 * that takes hashed values is recognised before these limits (decision 0096).
 */
export const USER_DATA_LIMITS: Readonly<Record<string, number>> = {
  // RFC 5321's path limit, which Meta's own validator enforces.
  email: 254,
  // E.164 has at most 15 digits; formatting, a "+", an extension and a "tel:" fit well within 50.
  phone: 50,
  // Long real names (multi-part Hawaiian, Spanish or Portuguese names) stay well under 200.
  first_name: 200,
  last_name: 200,
  // A whole name in one cell: a first and a last name (decision 0097).
  full_name: 400,
  // Bangkok's ceremonial name has 168 letters.
  city: 200,
  state: 100,
  // The longest postal codes have 10 characters.
  zip: 32,
  // "The United Kingdom of Great Britain and Northern Ireland" has 56.
  country: 100,
  gender: 50,
  // JavaScript's Date string with a long zone name is about 90.
  db: 100,
  // A user agent can be long; 2,048 is past any browser's.
  client_user_agent: 2048,
  client_ip_address: 64,
};
/** Any other customer identifier (external_id, fbc, fbp, lead_id, madid…). */
export const USER_DATA_DEFAULT_LIMIT = 1000;
/** Any other mapped field: the reader's old cut, now a row error instead of a cut. */
export const CELL_LIMIT = 10_000;

/** The longest value `def` accepts from a cell. */
export function lengthLimit(def: FieldDef): number {
  if (def.placement !== 'user_data') return CELL_LIMIT;
  return USER_DATA_LIMITS[def.key] ?? USER_DATA_DEFAULT_LIMIT;
}

/** The row error for a value longer than its field's limit. */
export function tooLongMessage(def: FieldDef, length: number, limit: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return def.placement === 'user_data'
    ? `${def.label} is ${n(length)} characters long: longer than any real ${def.label.toLowerCase()} (at most ${n(limit)}). Nothing was cut or sent; check the cell and the column mapping.`
    : `${def.key} is ${n(length)} characters long, more than ${n(limit)}. Nothing was cut or sent; check the cell and the column mapping.`;
}
