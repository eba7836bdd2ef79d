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
