/** Time fields carried as Unix seconds in an effective row or a prepared event. */
export const TIME_FIELDS = new Set(['event_time', 'original_event_time']);

/**
 * A Unix-seconds value as a person reads it in the file's own time zone ("Nov 21, 2026, 5:00 AM EST"): the
 * file was written there, so that is how its times look in the spreadsheet. Falls back to the raw text.
 */
export function formatEventTime(seconds: string | number, timeZone: string): string {
  const n = Number(seconds);
  if (!Number.isFinite(n) || String(seconds).trim() === '') return String(seconds);
  try {
    // dateStyle cannot be combined with timeZoneName: the parts are spelt out.
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(n * 1000));
  } catch {
    return String(seconds);
  }
}
