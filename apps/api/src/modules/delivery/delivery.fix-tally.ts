import { FIX_GROUPS, type EncodedEvent } from '@backsignal/core';

/**
 * Events of a sent batch with a value corrected in each fix group (FIX_GROUPS order), for Insights; null when no
 * event has a fix code (events not from the send's pipeline), so the batch reads as not counted.
 */
export function tallyFixes(events: readonly EncodedEvent[]): number[] | null {
  const fixed = FIX_GROUPS.map(() => 0);
  let counted = false;
  for (const e of events) {
    let code = e.fixes;
    if (code === undefined) continue;
    counted = true;
    // Most events had nothing fixed: one comparison, and the group loop only for the others.
    for (let g = 0; code !== 0; g++, code >>>= 1) if (code & 1) fixed[g]!++;
  }
  return counted ? fixed : null;
}
