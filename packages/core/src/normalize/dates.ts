import { lookupTable } from '../lookup-table.ts';
import { clean, ok, unusable, type Normalized } from './result.ts';

/** English and French month names and abbreviations → month number. */
export const MONTH_NUMBERS = lookupTable({
  jan: 1,
  january: 1,
  janv: 1,
  janvier: 1,
  feb: 2,
  february: 2,
  fevr: 2,
  févr: 2,
  fevrier: 2,
  février: 2,
  mar: 3,
  march: 3,
  mars: 3,
  apr: 4,
  april: 4,
  avr: 4,
  avril: 4,
  may: 5,
  mai: 5,
  jun: 6,
  june: 6,
  juin: 6,
  jul: 7,
  july: 7,
  juil: 7,
  juillet: 7,
  aug: 8,
  august: 8,
  aout: 8,
  août: 8,
  sep: 9,
  sept: 9,
  september: 9,
  septembre: 9,
  oct: 10,
  october: 10,
  octobre: 10,
  nov: 11,
  november: 11,
  novembre: 11,
  dec: 12,
  december: 12,
  déc: 12,
  decembre: 12,
  décembre: 12,
});

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Days in month `m` (1–12) of year `y`; Date.UTC reads years 0–99 as 1900–1999, and so does this. */
export const daysInMonth = (y: number, m: number): number => {
  // Arithmetic for the usual case (no Date per call); anything else goes through Date as before.
  if (Number.isInteger(y) && Number.isInteger(m) && y >= 100 && y <= 9999 && m >= 1 && m <= 12) {
    return m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : MONTH_DAYS[m - 1]!;
  }
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

export function validDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** A calendar day, as the row validator's `now` falls in the file's zone. */
export interface CalendarDate {
  y: number;
  m: number;
  d: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO 8601 basic format with a time: '19970216T233000Z', '19970216 000000', '19970216T23:30:00-08:00'. */
const COMPACT_TIMESTAMP = /^\d{8}[t ]\d{2}:?\d{2}(?::?\d{2}(?:[.,]\d+)?)?\s*(?:z|[+-]\d{2}(?::?\d{2})?)?$/;
/** A time of day at the end of a date written with a month name, with its am/pm and zone. */
const MONTH_NAME_TIME =
  /(?:\s+at)?\s+(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(?:\s*[ap]\.?m\.?)?(?:\s*(?:gmt|utc|z|[+-]\d{2}:?\d{2}))?$/;

/** The zone at the end of JavaScript's Date string: "GMT+0100", maybe with "(zone name)" after it. */
const JS_DATE_ZONE = /\s*gmt[+-]\d{4}(?:\s*\([^()]*\))?$/;

/**
 * db: YYYYMMDD from any common way of writing a date (Meta: "with or without punctuation"): ISO with or
 * without time (the calendar date as written, no zone shift), M/D/Y or D/M/Y (ambiguous ones follow
 * `order`, month first by default, as in Meta's `2/16/1997` example; D.M.Y day first), compact 8 digits,
 * month names.
 * Years before 1900, dates after `today`, two-digit years and impossible dates are unusable.
 * @example normalizeDateOfBirth('2/16/1997', 'MDY', { y: 2026, m: 3, d: 3 }) // { ok: true, value: '19970216', ... }
 */
export function normalizeDateOfBirth(
  raw: string,
  order: 'MDY' | 'DMY',
  today: CalendarDate | number,
): Normalized {
  // A bare year (the older signature) stands for the last day of that year.
  const now = typeof today === 'number' ? { y: today, m: 12, d: 31 } : today;
  const currentYear = now.y;
  const cleaned = clean(raw).toLowerCase();
  if (!cleaned) return unusable('is empty');
  // JavaScript's Date string: "Sun Feb 16 1997 00:00:00 GMT+0100 (Central European Standard Time)". The
  // zone says nothing of the calendar date as written.
  const text = cleaned.includes('gmt') ? cleaned.replace(JS_DATE_ZONE, '') : cleaned;
  let y: number | undefined;
  let m: number | undefined;
  let d: number | undefined;

  // Any word may be the month: "Sun Feb 16 1997" starts with a weekday.
  const monthWord = (text.match(/[a-zéû]{3,}/g) ?? []).find((w) => MONTH_NUMBERS[w]);
  if (monthWord) {
    m = MONTH_NUMBERS[monthWord];
    // A time after the date ("Feb 16, 1997 12:00 AM", "16 Feb 1997 00:00:00 GMT") says nothing of the day.
    const nums = text.replace(MONTH_NAME_TIME, '').match(/\d+/g) ?? [];
    if (nums.length !== 2) return unusable('is not a complete date');
    const [a, b] = nums.map(Number) as [number, number];
    if (nums[0]!.length === 4) [y, d] = [a, b];
    else [d, y] = [a, b];
    if (String(y).length !== 4) return unusable('needs a four-digit year');
  } else {
    // ISO 8601's basic format with a time ('19970216T233000Z'): the date is its first eight digits.
    const groups = (COMPACT_TIMESTAMP.test(text) ? text.slice(0, 8) : text).match(/\d+/g) ?? [];
    if (groups.length === 1 && groups[0]!.length === 8) {
      const g = groups[0]!;
      const asYmd = [Number(g.slice(0, 4)), Number(g.slice(4, 6)), Number(g.slice(6, 8))] as const;
      const asMdy = [Number(g.slice(4)), Number(g.slice(0, 2)), Number(g.slice(2, 4))] as const;
      const asDmy = [Number(g.slice(4)), Number(g.slice(2, 4)), Number(g.slice(0, 2))] as const;
      const fits = (c: readonly [number, number, number]) =>
        c[0] >= 1900 && c[0] <= currentYear && validDate(...c);
      const pick = [asYmd, ...(order === 'DMY' ? [asDmy, asMdy] : [asMdy, asDmy])].find(fits);
      if (!pick) return unusable('is not a valid date');
      [y, m, d] = pick;
    } else if (groups.length >= 3) {
      const [a, b, c] = groups as [string, string, string];
      if (a.length === 4) {
        y = Number(a);
        // Year/day/month ("1997/16/02", "1997.31.12") when the middle number cannot be a month. Not with
        // dashes: "1990-13-01" is ISO's year-month-day, with a month 13.
        const ydm = Number(b) > 12 && Number(c) <= 12 && !/^\D*\d{4}-/.test(text);
        [m, d] = ydm ? [Number(c), Number(b)] : [Number(b), Number(c)];
      } else if (c.length === 4) {
        const x = Number(a);
        const z = Number(b);
        y = Number(c);
        if (x > 12) [d, m] = [x, z];
        else if (z > 12) [m, d] = [x, z];
        // D.M.Y is written day first wherever it is used (as event_time reads it); slashes follow the file.
        else [m, d] = order === 'DMY' || /^\d{1,2}\.\d{1,2}\./.test(text) ? [z, x] : [x, z];
      } else return unusable('needs a four-digit year');
    } else return unusable('is not a complete date');
  }
  if (y === undefined || m === undefined || d === undefined) return unusable('is not a complete date');
  if (y < 1900 || y > currentYear) return unusable(`has a year outside 1900–${currentYear}`);
  if (!validDate(y, m, d)) return unusable('is not a valid date');
  if (y * 10_000 + m * 100 + d > now.y * 10_000 + now.m * 100 + now.d) return unusable('is in the future');
  const value = `${y}${pad(m)}${pad(d)}`;
  return ok(value, value === cleaned ? undefined : `Date of birth "${raw.trim()}" → ${value}`);
}
