import { INSIGHT_MATCH_KEYS, type InsightMatchKey } from '@backsignal/contracts';
import type { KeySums } from './insights.repo.ts';

/** A source's identifier whose share of keyed events fell and stayed down, with its sums on both sides. */
export interface KeyFall {
  source: string;
  key: InsightMatchKey;
  /** Keyed events before the split, and how many of them carried the identifier. */
  keyedBefore: number;
  before: number;
  /** The same from `lowSince` on. */
  keyedAfter: number;
  after: number;
  /** The first low day after the last day that was not. */
  lowSince: string;
}

/**
 * Per source and identifier: a day from the split on is low when its share of keyed events is under half the
 * share before the split; the fall began on the first low day after the last day that was not, and is reported
 * only when that day exists (the share stayed down since). Shares are compared as exact integer products.
 */
export function keyFalls(sums: readonly KeySums[]): KeyFall[] {
  const bySource = new Map<string, { before: KeySums | null; days: KeySums[] }>();
  for (const s of sums) {
    let e = bySource.get(s.source);
    if (!e) bySource.set(s.source, (e = { before: null, days: [] }));
    if (s.day === null) e.before = s;
    else e.days.push(s);
  }
  const falls: KeyFall[] = [];
  for (const [source, { before, days }] of bySource) {
    // A source without keyed events before the split has no share to fall from.
    if (!before) continue;
    days.sort((a, b) => (a.day! < b.day! ? -1 : 1));
    for (const key of INSIGHT_MATCH_KEYS) {
      const keyedBefore = BigInt(before.keyed);
      const withBefore = BigInt(before.keys[key]);
      // Days after the last one that was not low: all low.
      let from = days.length;
      while (
        from > 0 &&
        BigInt(days[from - 1]!.keys[key]) * 2n * keyedBefore < BigInt(days[from - 1]!.keyed) * withBefore
      )
        from--;
      if (from === days.length) continue;
      let keyedAfter = 0;
      let after = 0;
      for (let d = from; d < days.length; d++) {
        keyedAfter += days[d]!.keyed;
        after += days[d]!.keys[key];
      }
      falls.push({
        source,
        key,
        keyedBefore: before.keyed,
        before: before.keys[key],
        keyedAfter,
        after,
        lowSince: days[from]!.day!,
      });
    }
  }
  return falls;
}
