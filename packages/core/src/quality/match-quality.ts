import type { RowResult } from '../validate/row-validator.ts';
import { MATCH_WEIGHTS as WEIGHTS, matchLabel } from './row-match-quality.ts';

export interface MatchQuality {
  /** Field key → rows with a usable value. */
  identifiers: Record<string, number>;
  rows: number;
  /** 0–10, the average per-row estimate. */
  score: number;
  label: 'Poor' | 'OK' | 'Good' | 'Great';
  advice: string[];
}

/** Tallies which identifiers rows carry and estimates how well Meta will match the file. */
export function createMatchQualityTracker() {
  const counts: Record<string, number> = {};
  let rows = 0;
  let total = 0;
  return {
    add(row: Pick<RowResult, 'effectiveRow'>) {
      rows++;
      let s = 0;
      for (const key in WEIGHTS) {
        if (row.effectiveRow[key]) {
          counts[key] = (counts[key] ?? 0) + 1;
          s += WEIGHTS[key]!;
        }
      }
      total += Math.min(10, s);
    },
    result(): MatchQuality {
      const score = rows ? Math.round((total / rows) * 10) / 10 : 0;
      const share = (k: string) => (rows ? (counts[k] ?? 0) / rows : 0);
      const advice: string[] = [];
      if (share('email') < 0.8)
        advice.push(
          `Only ${Math.round(share('email') * 100)}% of rows have a usable email. Emails are the strongest match key.`,
        );
      if (share('phone') < 0.8)
        advice.push(
          `Only ${Math.round(share('phone') * 100)}% of rows have a usable phone. Add phone numbers, ideally with country code.`,
        );
      if (share('first_name') < 0.5 || share('last_name') < 0.5)
        advice.push('Add first and last names: together with zip they lift matching.');
      if (share('zip') < 0.5) advice.push('Add zip or postal codes.');
      if (share('external_id') < 0.5)
        advice.push('Add your CRM customer id as external_id, the same one your pixel sends.');
      const label = matchLabel(score);
      return { identifiers: { ...counts }, rows, score, label, advice };
    },
  };
}
