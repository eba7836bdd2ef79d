import { MATCH_WEIGHTS } from './row-match-quality.ts';

/**
 * The customer identifiers Insights charts over time, each a bit of an event's match code: which of them the
 * event carries. Name is either half of a name, address any of city, state or zip (a country alone, often a
 * fixed value for the whole file, says little about the person).
 */
export const MATCH_KEY_GROUPS = ['email', 'phone', 'name', 'address', 'external_id'] as const;
export type MatchKeyGroup = (typeof MATCH_KEY_GROUPS)[number];

const GROUP_BIT: Readonly<Record<string, number>> = {
  email: 1,
  phone: 2,
  first_name: 4,
  last_name: 4,
  city: 8,
  state: 8,
  zip: 8,
  external_id: 16,
};
const GROUP_BITS = 5;

/** What one field adds to a match code when the event carries it: its group's bit, and its weight in tenths. */
export interface MatchPart {
  bit: number;
  tenths: number;
}
const NO_PART: MatchPart = { bit: 0, tenths: 0 };
// Tenths as integers: every weight is a whole number of tenths, so their sum is exact in any order.
const WEIGHTED = Object.entries(MATCH_WEIGHTS).map(([key, weight]) => ({
  key,
  bit: GROUP_BIT[key] ?? 0,
  tenths: Math.round(weight * 10),
}));
const PARTS = new Map<string, MatchPart>(WEIGHTED.map((w) => [w.key, w]));

/** A field's part of a match code (nothing for a field that does not help matching). */
export const matchPart = (key: string): MatchPart => PARTS.get(key) ?? NO_PART;

/** The match code of an event whose carried fields' parts add up to these bits and tenths. */
export const packMatch = (bits: number, tenths: number): number =>
  bits | (Math.min(100, tenths) << GROUP_BITS);

/**
 * One number per event: the groups it carries (low 5 bits) and its match estimate in tenths (0–100, the rest),
 * the same estimate as rowMatchQuality's score. This is the definition; a send gets the same number from its
 * event writer, which sees each field of the row anyway (createEventWriter's `match`).
 */
export function matchCode(effectiveRow: Readonly<Record<string, string>>): number {
  let bits = 0;
  let tenths = 0;
  for (const w of WEIGHTED) {
    if (effectiveRow[w.key]) {
      bits |= w.bit;
      tenths += w.tenths;
    }
  }
  return packMatch(bits, tenths);
}

/** Whether a match code carries the group (its index in MATCH_KEY_GROUPS). */
export const hasMatchGroup = (code: number, group: number): boolean => (code & (1 << group)) !== 0;

/** A match code's estimate in tenths (0–100). */
export const matchTenths = (code: number): number => code >>> GROUP_BITS;
