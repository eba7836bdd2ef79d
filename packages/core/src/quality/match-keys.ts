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
const WEIGHTED = Object.entries(MATCH_WEIGHTS).map(([key, weight]) => ({
  key,
  weight,
  bit: GROUP_BIT[key] ?? 0,
}));
const GROUP_BITS = 5;

/**
 * One number per event, cheap enough for every row of a send: the groups it carries (low 5 bits) and its match
 * estimate in tenths (0–100, the rest), the same estimate as rowMatchQuality's score.
 */
export function matchCode(effectiveRow: Readonly<Record<string, string>>): number {
  let bits = 0;
  let score = 0;
  for (const w of WEIGHTED) {
    if (effectiveRow[w.key]) {
      bits |= w.bit;
      score += w.weight;
    }
  }
  return bits | (Math.round(Math.min(10, score) * 10) << GROUP_BITS);
}

/** Whether a match code carries the group (its index in MATCH_KEY_GROUPS). */
export const hasMatchGroup = (code: number, group: number): boolean => (code & (1 << group)) !== 0;

/** A match code's estimate in tenths (0–100). */
export const matchTenths = (code: number): number => code >>> GROUP_BITS;
