import { sha256 } from '../hash/sha256.ts';
import { jsonString, jsonStringBody } from '../json/json-string.ts';
import { trimmed } from '../normalize/result.ts';
import { STRONG_IDENTIFIERS, WEAK_IDENTIFIERS } from './identifiers.ts';
import { ValueMemo } from './value-memo.ts';

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
  return eventIdOf(eff, headOf(eff.event_name ?? ''), jsonStringBody(eventTime));
}

/** The id's JSON before the event time's text. */
const headOf = (name: string): string => `[["event_name","${jsonStringBody(name)}"],["event_time","`;

/**
 * deriveEventId for one file's rows, whose event time is a number's text (`String(seconds)`, or '' when there
 * is none), which JSON never escapes. The JSON before the time is remembered per event name: a file has few of
 * them, and the escape test of each name and time was two regex calls per row (~350 instructions each).
 */
export function createEventIdDeriver(): (eff: Readonly<Record<string, string>>, seconds: string) => string {
  const heads = new ValueMemo<string>();
  return (eff, seconds) => {
    const name = eff.event_name ?? '';
    return eventIdOf(eff, heads.get(name) ?? heads.set(name, headOf(name)), seconds);
  };
}

/** The id from the JSON before the event time (`head`) and the time as JSON string text. */
function eventIdOf(eff: Readonly<Record<string, string>>, head: string, time: string): string {
  // Exactly JSON.stringify([['event_name', …], ['event_time', …], [key, value]…]), written out: the same
  // bytes (and so the same ids) without building the arrays for every row.
  // The quotes around each value are part of the constant text: fewer, longer pieces to join and hash.
  let json = `${head}${time}"]`;
  if (eff.order_id) json += `,["order_id","${jsonStringBody(trimmed(eff.order_id))}"]`;
  else {
    const strong = presentKeys(eff, STRONG_IDENTIFIERS);
    const keys = strong.length ? strong : presentKeys(eff, WEAK_IDENTIFIERS);
    for (const k of keys.sort()) json += `,[${jsonString(k)},${jsonString(eff[k]!)}]`;
  }
  // Joined, not concatenated: `'bs-' + …` would be a rope (a ConsString), and the writer's escape test on it
  // then takes V8's slow regexp path to flatten it first (~2% of the pipeline's instructions).
  return ['bs-', sha256(`${json}]`).slice(0, 32)].join('');
}

/** The keys of `keys` that have a value in the row, as a new array. */
function presentKeys(eff: Readonly<Record<string, string>>, keys: readonly string[]): string[] {
  const present: string[] = [];
  for (const k of keys) if (eff[k]) present.push(k);
  return present;
}
