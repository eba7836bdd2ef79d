import { LEAK_STATEMENTS, type LeakKey } from './forms-data.ts';

export interface AuditScore {
  keys: LeakKey[];
  score: number;
  color: 'green' | 'yellow' | 'red';
  verdict: string;
  /** Added below a perfect score (spec §4). */
  costLine: string | null;
}

const KEYS = new Set<string>(LEAK_STATEMENTS.map((l) => l.key));

/** Leak keys from ?leaks= (comma-separated; entries trimmed, empties and unknowns ignored, each once). */
export function parseLeaks(query: string | null | undefined): LeakKey[] {
  const seen = new Set<LeakKey>();
  for (const part of (query ?? '').split(',')) {
    const k = part.trim();
    if (k && KEYS.has(k)) seen.add(k as LeakKey);
  }
  return [...seen];
}

/** Spec §4 audit scoring: (keys / 5) × 100 rounded; green at 100, yellow from 60, red below. */
export function auditScore(keys: readonly LeakKey[]): AuditScore {
  const n = keys.length;
  const score = Math.round((n / 5) * 100);
  const color = score >= 100 ? 'green' : score >= 60 ? 'yellow' : 'red';
  const verdict =
    n === 5 ? 'Excellent tracking hygiene' : n >= 3 ? 'Some tracking in place' : "You're flying blind";
  const costLine =
    n < 5
      ? 'Closing these gaps lets your ad platforms optimise for booked jobs, which typically lowers your cost per lead.'
      : null;
  return { keys: [...keys], score, color, verdict, costLine };
}

/** Leak keys for the statements a visitor ticked on the audit form. */
export const keysForStatements = (texts: readonly string[]): LeakKey[] =>
  LEAK_STATEMENTS.filter((l) => texts.some((t) => t.trim() === l.text)).map((l) => l.key);
