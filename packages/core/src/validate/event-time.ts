import { validDate } from '../normalize/dates.ts';
import { trimmed } from '../normalize/result.ts';
import { matchMonthNameDate } from './month-name-date.ts';
import { zonedToEpochMs } from './zoned-time.ts';

export type DateOrder = 'MDY' | 'DMY';

export type ParsedTime =
  | {
      ok: true;
      seconds: number;
      note?: string;
      dateOnly?: boolean;
      /** Start of that day, for date-only values. */ dayStart?: number;
    }
  | { ok: false; reason: string };

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASH =
  /^(\d{1,4})([/.-])(\d{1,2})\2(\d{2,4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?\s*(z|[+-]\d{2}:?\d{2})?$/i;
// '2026-11-20T09:02:52.000Z', as toISOString and most exports write a time: read by utcIso without the ISO
// regex's captures. Twenty characters at least.
const UTC_ISO = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?z$/i;
// '11/21/2026 0:31', '21/11/2026 14:05:09': a slash date with a four-digit year and a 24-hour time without a
// zone, read by slashTime. Thirteen to nineteen characters.
const SLASH_TIME = /^\d\d?\/\d\d?\/\d{4} \d\d?:\d\d(?::\d\d)?$/;
const DATE_ONLY_NOTE = 'event_time has no time of day; used 12:00 in the file time zone';
const EXCEL_EPOCH_DAYS = 25569; // 1970-01-01 as an Excel serial day

function zoneOffsetMinutes(z: string): number {
  if (z.toLowerCase() === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(z)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

function toSeconds(
  zone: string,
  offset: string | undefined,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
): number {
  if (offset)
    return Math.floor((Date.UTC(y, mo - 1, d, h, mi, s) - zoneOffsetMinutes(offset) * 60_000) / 1000);
  return Math.floor(zonedToEpochMs(zone, y, mo, d, h, mi, s) / 1000);
}

/** A date without a time of day: noon in the zone, the middle of the only thing we know. */
function dateOnly(
  zone: string,
  offset: string | undefined,
  y: number,
  mo: number,
  d: number,
): Extract<ParsedTime, { ok: true }> {
  return {
    ok: true,
    seconds: toSeconds(zone, offset, y, mo, d, 12, 0, 0),
    dateOnly: true,
    dayStart: toSeconds(zone, offset, y, mo, d, 0, 0, 0),
    note: DATE_ONLY_NOTE,
  };
}

/** The number written in digits v[from] … v[to - 1], which the caller has checked are digits. */
function digitsAt(v: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + v.charCodeAt(i) - 48;
  return n;
}

/**
 * A UTC_ISO value, read as readEventTime's ISO branch reads it (whose regex, match array and strings
 * per value were a measurable part of validating a row): the fields sit at fixed places.
 */
function utcIso(v: string): ParsedTime {
  const y = digitsAt(v, 0, 4);
  const mo = digitsAt(v, 5, 7);
  const d = digitsAt(v, 8, 10);
  const h = digitsAt(v, 11, 13);
  const mi = digitsAt(v, 14, 16);
  const s = digitsAt(v, 17, 19);
  if (!validDate(y, mo, d)) return { ok: false, reason: 'is not a valid date' };
  if (h > 23 || mi > 59 || s > 59) return { ok: false, reason: 'has an invalid time' };
  return { ok: true, seconds: Math.floor(Date.UTC(y, mo - 1, d, h, mi, s) / 1000) };
}

/**
 * Whether a date written x/b/year has its month first: a day above 12 settles it, D.M.Y is always day first,
 * and otherwise the file's order decides.
 */
function monthFirst(x: number, b: number, order: DateOrder, dotted: boolean): boolean {
  if (dotted || x > 12) return false;
  if (b > 12) return true;
  return order !== 'DMY';
}

/**
 * A SLASH_TIME value, the same reading as the SLASH branch of readEventTime without its regex captures: the
 * usual way US spreadsheets write a time.
 */
function slashTime(v: string, zone: string, order: DateOrder): ParsedTime {
  const slash1 = v.indexOf('/');
  const slash2 = v.indexOf('/', slash1 + 1);
  const space = v.indexOf(' ', slash2);
  const colon1 = v.indexOf(':', space);
  const colon2 = v.indexOf(':', colon1 + 1);
  const x = digitsAt(v, 0, slash1);
  const b = digitsAt(v, slash1 + 1, slash2);
  const [mo, d] = monthFirst(x, b, order, false) ? [x, b] : [b, x];
  const y = digitsAt(v, slash2 + 1, space);
  const h = digitsAt(v, space + 1, colon1);
  const mi = digitsAt(v, colon1 + 1, colon2 < 0 ? v.length : colon2);
  const s = colon2 < 0 ? 0 : digitsAt(v, colon2 + 1, v.length);
  if (!validDate(y, mo, d)) return { ok: false, reason: 'is not a valid date' };
  if (h > 23 || mi > 59 || s > 59) return { ok: false, reason: 'has an invalid time' };
  return { ok: true, seconds: toSeconds(zone, undefined, y, mo, d, h, mi, s) };
}

/** 24-hour clock from a written time; null when it is not a real time of day. */
function clock(h: number, mi: number, s: number, ampm: string | undefined): [number, number, number] | null {
  if (ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (ampm === 'pm' ? 12 : 0);
  }
  return h > 23 || mi > 59 || s > 59 ? null : [h, mi, s];
}

/**
 * Reads an event time as Unix seconds: ISO 8601 with or without zone, date only (noon in the file's zone),
 * M/D/Y or D/M/Y (by `order`), D.M.Y, month names ('3 Mar 2026 10:00', 'Mar 3, 2026'), Unix seconds, Unix
 * milliseconds and Excel serial dates. Values without a zone are read in the file's IANA `zone`; anything else
 * is an error.
 */
export function parseEventTime(raw: string, zone: string, order: DateOrder): ParsedTime {
  const v = trimmed(raw);
  if (!v) return { ok: false, reason: 'is empty' };
  return parseTrimmedEventTime(v, zone, order);
}

/**
 * parseEventTime of a value that is already trimmed and not empty, as the row validator has it: trimmed()
 * reads a cell's first and last characters, and each read of a sliced string costs ~50 instructions.
 */
export function parseTrimmedEventTime(v: string, zone: string, order: DateOrder): ParsedTime {
  // The usual shapes first, told apart by their length before any regex (a regex test costs ~400 instructions
  // with its builtin, and a millisecond time went through four of them). Reading the characters in a loop
  // instead costs more: a cell is a slice of the CSV text, and each charCodeAt of a sliced string ~50.
  const n = v.length;
  if (n >= 20) {
    if (UTC_ISO.test(v)) return utcIso(v);
  } else if (n >= 12 && n <= 13 && MILLISECONDS.test(v)) {
    return { ok: true, seconds: Math.floor(Number(v) / 1000), note: MILLISECONDS_NOTE };
  } else if (n >= 13 && SLASH_TIME.test(v)) return slashTime(v, zone, order);
  return readEventTime(v, zone, order);
}

// Unix milliseconds, read by readEventTime's number branch.
const MILLISECONDS = /^\d{12,13}$/;
const MILLISECONDS_NOTE = 'Converted event_time from milliseconds to seconds';
const UNIX_WITH_FRACTION = /^(\d{9,13})\.\d+$/;
// ISO 8601's basic format: '20261121', and '20261121T100000Z' (read as '2026-11-21T10:00:00Z').
const BASIC_DATE = /^(\d{4})(\d\d)(\d\d)$/;
const BASIC_DATE_TIME =
  /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d(?:[.,]\d+)?)?(\s*(?:z|[+-]\d{2}(?::?\d{2})?)?)$/i;
/** The ISO regex's match of a basic-format date and time, as if written in the extended format. */
function basicIso(v: string): RegExpExecArray | null {
  const b = BASIC_DATE_TIME.exec(v);
  return b && ISO.exec(`${b[1]}-${b[2]}-${b[3]}T${b[4]}:${b[5]}${b[6] ? `:${b[6]}` : ''}${b[7]}`);
}

/**
 * parseEventTime without its shortcuts for the usual shapes: every shape it reads, by its regexes. Exported
 * so the tests can hold each shortcut to it.
 */
export function readEventTime(raw: string, zone: string, order: DateOrder): ParsedTime {
  const v = trimmed(raw);
  if (!v) return { ok: false, reason: 'is empty' };
  if (/^\d+(\.\d+)?$/.test(v)) {
    // A spreadsheet writes a whole number as '1795348800.0'; Python's time.time() adds fractions of a second.
    const whole = UNIX_WITH_FRACTION.exec(v)?.[1];
    if (whole) {
      const r = readEventTime(whole, zone, order);
      return r.ok ? { ...r, note: r.note ?? `Converted event_time "${v}" to whole seconds` } : r;
    }
    // '20261121', ISO 8601's basic date: a number of no other meaning here (as Unix seconds it is 1970).
    const basic = BASIC_DATE.exec(v);
    if (basic) {
      const [y, mo, d] = [Number(basic[1]), Number(basic[2]), Number(basic[3])];
      if (validDate(y, mo, d)) return dateOnly(zone, undefined, y, mo, d);
    }
    const n = Number(v);
    if (MILLISECONDS.test(v)) return { ok: true, seconds: Math.floor(n / 1000), note: MILLISECONDS_NOTE };
    if (/^\d{9,10}$/.test(v)) return { ok: true, seconds: n };
    if (n >= 20_000 && n < 80_000) {
      // Excel serial date: days since 1899-12-30 in the file's local time. A whole number is a date
      // without a time, so it gets the same noon as '2026-11-21' rather than midnight.
      const ms = Math.round((n - EXCEL_EPOCH_DAYS) * 86_400_000);
      const t = new Date(ms);
      if (Number.isInteger(n)) {
        const r = dateOnly(zone, undefined, t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
        return {
          ...r,
          note: `Converted Excel date ${v} to a date; it has no time of day, so used 12:00 in the file time zone`,
        };
      }
      const seconds = toSeconds(
        zone,
        undefined,
        t.getUTCFullYear(),
        t.getUTCMonth() + 1,
        t.getUTCDate(),
        t.getUTCHours(),
        t.getUTCMinutes(),
        t.getUTCSeconds(),
      );
      return { ok: true, seconds, note: `Converted Excel date ${v} to a timestamp` };
    }
    return { ok: false, reason: 'is a number that is not a timestamp' };
  }

  let m = ISO.exec(v) ?? basicIso(v);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!validDate(y, mo, d)) return { ok: false, reason: 'is not a valid date' };
    if (m[4] === undefined) return dateOnly(zone, m[7], y, mo, d);
    const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    if (h > 23 || mi > 59 || s > 59) return { ok: false, reason: 'has an invalid time' };
    return { ok: true, seconds: toSeconds(zone, m[7], y, mo, d, h, mi, s) };
  }

  m = SLASH.exec(v);
  if (m) {
    const [a, sep, b, c] = [m[1]!, m[2]!, Number(m[3]), m[4]!];
    let y: number;
    let mo: number;
    let d: number;
    if (a.length === 4) [y, mo, d] = [Number(a), b, Number(c)];
    else {
      const x = Number(a);
      y = c.length === 2 ? 2000 + Number(c) : Number(c);
      [mo, d] = monthFirst(x, b, order, sep === '.') ? [x, b] : [b, x];
    }
    if (!validDate(y, mo, d)) return { ok: false, reason: 'is not a valid date' };
    if (m[5] === undefined) return dateOnly(zone, m[9], y, mo, d);
    const hms = clock(Number(m[5]), Number(m[6]), Number(m[7] ?? 0), m[8]?.toLowerCase());
    if (!hms) return { ok: false, reason: 'has an invalid time' };
    return { ok: true, seconds: toSeconds(zone, m[9], y, mo, d, ...hms) };
  }

  // Month names are read only in explicit shapes and in the file's zone: a general date parser would use
  // the server's own time zone and accept junk such as "TBD 2026".
  const w = matchMonthNameDate(v);
  if (w) {
    if (!validDate(w.y, w.mo, w.d)) return { ok: false, reason: 'is not a valid date' };
    if (!w.time) return dateOnly(zone, w.offset, w.y, w.mo, w.d);
    const hms = clock(w.time.h, w.time.mi, w.time.s, w.time.ampm);
    if (!hms) return { ok: false, reason: 'has an invalid time' };
    return { ok: true, seconds: toSeconds(zone, w.offset, w.y, w.mo, w.d, ...hms) };
  }
  return {
    ok: false,
    reason:
      'is not a date or time Backsignal can read (use e.g. 2026-03-03 10:00, 03/03/2026 10:00, 3 Mar 2026 10:00 or Unix seconds)',
  };
}

/**
 * Decides the day/month order of a column from its unambiguous values (a first number above 12 means D/M,
 * a second one above 12 means M/D). Null when the column does not decide it, or contradicts itself.
 */
export function detectDateOrder(samples: Iterable<string>): DateOrder | null {
  let dmy = 0;
  let mdy = 0;
  for (const s of samples) {
    const m = /^\s*(\d{1,2})[/-](\d{1,2})[/-]\d{2,4}/.exec(s);
    if (!m) continue;
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a > 12 && b <= 12) dmy++;
    else if (b > 12 && a <= 12) mdy++;
  }
  if (dmy && !mdy) return 'DMY';
  if (mdy && !dmy) return 'MDY';
  return null;
}

/**
 * The time to send for a parsed value. A date-only value means "some time that day", and noon is only a
 * guess: on the day itself, before noon, the event has certainly already happened, so it must never be
 * judged (or sent) as in the future. Such values use `now` instead of noon.
 */
export function sendableSeconds(t: Extract<ParsedTime, { ok: true }>, now: number): number {
  if (t.dateOnly && t.dayStart !== undefined && t.dayStart <= now) return Math.min(t.seconds, now);
  return t.seconds;
}

export const SEVEN_DAYS = 7 * 86_400;
export const SIXTY_TWO_DAYS = 62 * 86_400;
export const FUTURE_TOLERANCE = 60;

/** Meta's window for the event's action source (meta-capi.md §1.3): 62 days in store, 7 days otherwise. */
export const windowFor = (actionSource: string | undefined) =>
  actionSource === 'physical_store' ? SIXTY_TWO_DAYS : SEVEN_DAYS;
