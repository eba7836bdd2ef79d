import { MATCH_KEY_GROUPS, hasMatchGroup, matchTenths, type EncodedEvent } from '@backsignal/core';

/** What a sent batch's events carried (Insights): how many, their estimates' sum in tenths, and per group. */
export interface MatchTally {
  events: number;
  tenths: number;
  /** Events carrying each group, in MATCH_KEY_GROUPS order. */
  groups: number[];
}

/** Sums the events' match codes; null when none has one (events not from the send's pipeline). */
export function tallyMatches(events: readonly EncodedEvent[]): MatchTally | null {
  const groups = MATCH_KEY_GROUPS.map(() => 0);
  let counted = 0;
  let tenths = 0;
  for (const e of events) {
    const code = e.match;
    if (code === undefined) continue;
    counted++;
    tenths += matchTenths(code);
    for (let g = 0; g < groups.length; g++) if (hasMatchGroup(code, g)) groups[g]!++;
  }
  return counted ? { events: counted, tenths, groups } : null;
}
