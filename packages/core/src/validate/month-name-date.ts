import { MONTH_NUMBERS } from '../normalize/dates.ts';

/** The parts of a date written with a month name, before any zone is applied. */
export interface WrittenDate {
  y: number;
  mo: number;
  d: number;
  time?: { h: number; mi: number; s: number; ampm?: 'am' | 'pm' };
  /** 'Z' or ±hh:mm when the text names one; otherwise the file's zone applies. */
  offset?: string;
}

const WEEKDAY = String.raw`(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?`;
const ORDINAL = String.raw`(?:st|nd|rd|th)?`;
const MONTH = String.raw`([a-zéû]{3,9})\.?`;
const TIME = String.raw`(?:(?:\s*,\s*|\s+)(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?)?`;
const ZONE = String.raw`(?:\s*(z|utc|gmt|[+-]\d{2}:?\d{2}))?`;

// The forms spreadsheets and CRMs actually write: "3 Mar 2026 10:00", "3-Mar-2026", "Tue, 3 Mar 2026 10:00:00 +0000".
const DAY_FIRST = new RegExp(
  String.raw`^${WEEKDAY}(\d{1,2})${ORDINAL}[\s-]+${MONTH}[\s,-]+(\d{4})${TIME}${ZONE}$`,
  'i',
);
// "Mar 3, 2026", "March 3 2026 10:00 PM", "Sun Feb 16 1997".
const MONTH_FIRST = new RegExp(
  String.raw`^${WEEKDAY}${MONTH}\s+(\d{1,2})${ORDINAL},?\s+(\d{4})${TIME}${ZONE}$`,
  'i',
);

function offsetOf(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  return /^(z|utc|gmt)$/i.test(zone) ? 'Z' : zone;
}

/**
 * Reads a date written with a month name. Only these explicit shapes are accepted, so text that merely
 * contains a word and a number ("TBD 2026", "order 1234") is never taken for a date.
 */
export function matchMonthNameDate(v: string): WrittenDate | null {
  let day: string;
  let month: string;
  let rest: (string | undefined)[];
  let m = DAY_FIRST.exec(v);
  if (m) [day, month, ...rest] = [m[1]!, m[2]!, ...m.slice(3)];
  else {
    m = MONTH_FIRST.exec(v);
    if (!m) return null;
    [month, day, ...rest] = [m[1]!, m[2]!, ...m.slice(3)];
  }
  const mo = MONTH_NUMBERS[month.toLowerCase()];
  if (!mo) return null;
  const [year, h, mi, s, ampm, zone] = rest;
  const out: WrittenDate = { y: Number(year), mo, d: Number(day) };
  if (h !== undefined) {
    const half = ampm?.toLowerCase().replace(/\./g, '');
    out.time = {
      h: Number(h),
      mi: Number(mi),
      s: Number(s ?? 0),
      ...(half ? { ampm: half as 'am' | 'pm' } : {}),
    };
  }
  const offset = offsetOf(zone);
  if (offset) out.offset = offset;
  return out;
}
