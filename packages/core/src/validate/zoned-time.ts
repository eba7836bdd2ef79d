const formatters = new Map<string, Intl.DateTimeFormat>();

/** A zone's wall-clock formatter (24-hour, numeric parts), one per zone. */
export function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True for an IANA zone name the runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

// A zone's offset changes only at its transitions, and in the time zone database no two are closer than
// days apart: when the offset is the same at both ends of an hour, it holds for the whole hour. Times in a
// file crowd into the same hours, and reading an offset from Intl (formatToParts) costs microseconds, so the
// offset of each hour is remembered per zone (null when a transition falls inside it), bounded.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HOURS_LIMIT = 10_000;
const hourOffsets = new Map<string, Map<number, number | null>>();

/** Offset of `zone` from UTC at the instant `ms`, in milliseconds. */
function offsetAt(zone: string, ms: number): number {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 0;
  let hours = hourOffsets.get(zone);
  if (!hours) hourOffsets.set(zone, (hours = new Map()));
  const start = Math.floor(ms / HOUR) * HOUR;
  let offset = hours.get(start);
  if (offset === undefined) {
    if (hours.size >= HOURS_LIMIT) hours.clear();
    const atStart = readOffset(zone, start);
    offset = readOffset(zone, start + HOUR - 1) === atStart ? atStart : null;
    hours.set(start, offset);
  }
  return offset ?? readOffset(zone, ms);
}

/** Offset of `zone` from UTC at the instant `ms`, in milliseconds, as Intl reads it. */
function readOffset(zone: string, ms: number): number {
  const parts = formatter(zone).formatToParts(ms);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * Unix milliseconds of a wall-clock time in an IANA zone, read as Temporal's "compatible" does: a time the
 * clocks skipped (02:30 as they spring forward) is read with the offset before the change, so it lands as far
 * after the change as it was written after it (03:30); a time that happened twice (as they fall back) is the
 * earlier one. Every zone gets the same rule, east or west of Greenwich.
 * @example zonedToEpochMs('America/New_York', 2026, 7, 4, 12, 0, 0) // 2026-07-04T16:00:00Z
 */
export function zonedToEpochMs(
  zone: string,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  // The offsets a day either side: no two changes are closer than that (see offsetAt). The larger offset gives
  // the earlier instant; each is a reading only if the zone has that offset there.
  const before = offsetAt(zone, guess - DAY);
  const after = offsetAt(zone, guess + DAY);
  for (const offset of [Math.max(before, after), Math.min(before, after)])
    if (offsetAt(zone, guess - offset) === offset) return guess - offset;
  return guess - before;
}

/** The calendar date of an instant in a zone. */
export function zonedDate(zone: string, ms: number): { y: number; m: number; d: number } {
  const parts = formatter(zone).formatToParts(ms);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: get('year'), m: get('month'), d: get('day') };
}
