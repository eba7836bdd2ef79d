import { identifierProblem } from '../validate/identifiers.ts';

// Rough weights of how much each key helps Meta match a person (email and phone dominate).
export const MATCH_WEIGHTS: Readonly<Record<string, number>> = {
  email: 4,
  phone: 3,
  external_id: 1,
  first_name: 0.6,
  last_name: 0.6,
  zip: 0.5,
  city: 0.3,
  state: 0.3,
  country: 0.3,
  db: 0.5,
  gender: 0.2,
  client_ip_address: 0.8,
  client_user_agent: 0.4,
  fbc: 1.5,
  fbp: 0.8,
  lead_id: 3,
  // Meta's own ids for a person (app login, Messenger, Instagram) match as surely as an email; a device's
  // advertising id or a click-to-WhatsApp click id as surely as a lead id; the rest only within one app or shop.
  fb_login_id: 4,
  page_scoped_user_id: 4,
  ig_sid: 4,
  madid: 3,
  ctwa_clid: 3,
  ig_account_id: 1,
  anon_id: 1,
  subscription_id: 1,
};

export interface RowMatchQuality {
  /** Identifier keys the row carries a usable (normalised) value for, strongest first. */
  usable: string[];
  /** 0–10: the same estimate the per-file score averages. */
  score: number;
  label: 'Poor' | 'OK' | 'Good' | 'Great';
  /** Why Meta would reject the row's customer information, or null. */
  problem: string | null;
}

export const matchLabel = (score: number): RowMatchQuality['label'] =>
  score >= 7 ? 'Great' : score >= 5 ? 'Good' : score >= 3 ? 'OK' : 'Poor';

/** How well Meta can match one validated row, in plain terms for the row's detail view. */
export function rowMatchQuality(effectiveRow: Readonly<Record<string, string>>): RowMatchQuality {
  const usable = Object.keys(MATCH_WEIGHTS)
    .filter((k) => effectiveRow[k])
    .sort((a, b) => MATCH_WEIGHTS[b]! - MATCH_WEIGHTS[a]!);
  const score = Math.min(
    10,
    usable.reduce((s, k) => s + MATCH_WEIGHTS[k]!, 0),
  );
  const rounded = Math.round(score * 10) / 10;
  return { usable, score: rounded, label: matchLabel(rounded), problem: identifierProblem(effectiveRow) };
}
