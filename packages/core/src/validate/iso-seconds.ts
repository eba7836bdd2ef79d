// Whole seconds in the years 0000–9999, where toISOString writes a plain four-digit year.
const MIN_SECONDS = -62_167_219_200; // 0000-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

/**
 * `new Date(seconds * 1000).toISOString()` without its ".000" ('2026-11-21T10:00:00Z'), as correction messages
 * show a time. Written out for whole seconds: a Date, its string and a replace per message were a measurable
 * part of validating a row. Anything else (fractions, years beyond 9999) still goes through Date.
 */
export function isoSeconds(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < MIN_SECONDS || seconds > MAX_SECONDS)
    return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const days = Math.floor(seconds / 86_400);
  const ofDay = seconds - days * 86_400;
  const hour = Math.floor(ofDay / 3600);
  const minute = Math.floor((ofDay % 3600) / 60);
  // Two short flat strings joined once, not a chain of seven joins: the message that keeps it is kept per row.
  const clock = `${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[ofDay % 60]}Z`;
  return `${calendarDate(days)}T${clock}`;
}

/**
 * YYYY-MM-DD of a day counted from 1970-01-01 (proleptic Gregorian, as Date), by Howard Hinnant's
 * civil_from_days: eras of 400 years, each starting on March 1st so the leap day is last.
 */
function calendarDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  // Leap days so far in the era (every 4 years, not every 100, but every 400), so 365 days a year remain.
  const leapDays =
    Math.floor(dayOfEra / 1460) - Math.floor(dayOfEra / 36_524) + Math.floor(dayOfEra / 146_096);
  const yearOfEra = Math.floor((dayOfEra - leapDays) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
}
