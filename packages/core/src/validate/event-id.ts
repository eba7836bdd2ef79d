import { sha256 } from '../hash/sha256.ts';
import { STRONG_IDENTIFIERS, WEAK_IDENTIFIERS } from './identifiers.ts';

/**
 * The event_id Backsignal sends when the file has none (docs/decisions/0011-event-id-derivation.md).
 *
 * It must be the same for the same conversion in every upload, or Meta's dedup (event_name + event_id) cannot
 * drop a re-sent row. So it is built from what the conversion *is*, after normalisation: event_name,
 * event_time, and either order_id (an order is its own identity, and re-uploading it with an extra email
 * column must not make it a new event) or, without one, the person's identifiers. Column order, stray
 * whitespace, letter case and unrelated mapped columns (value, city, a new custom field) cannot change it.
 *
 * @param eff the row's normalised values
 * @param eventTime event_time as read from the cell, before any clamp to "now", so the id does not depend on
 *   when the file is validated
 */
export function deriveEventId(eff: Readonly<Record<string, string>>, eventTime: string): string {
  // Exactly JSON.stringify([['event_name', …], ['event_time', …], [key, value]…]), written out: the same
  // bytes (and so the same ids) without building the arrays for every row.
  let json = `[["event_name",${JSON.stringify(eff.event_name ?? '')}],["event_time",${JSON.stringify(eventTime)}]`;
  if (eff.order_id) json += `,["order_id",${JSON.stringify(eff.order_id.trim())}]`;
  else {
    const strong = STRONG_IDENTIFIERS.filter((k) => eff[k]);
    const keys = strong.length ? strong : WEAK_IDENTIFIERS.filter((k) => eff[k]);
    for (const k of [...keys].sort()) json += `,[${JSON.stringify(k)},${JSON.stringify(eff[k]!)}]`;
  }
  return `bs-${sha256(`${json}]`).slice(0, 32)}`;
}
