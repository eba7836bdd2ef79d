import { INSIGHT_DAILY_MAX_DAYS } from '@backsignal/contracts';

export const DAY_MS = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const at = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** The Monday of a UTC day's ISO week. */
export const mondayOf = (day: string) => isoDay(at(day) - ((new Date(at(day)).getUTCDay() + 6) % 7) * DAY_MS);

/**
 * How a range is charted (decision 0122): a bar per day up to INSIGHT_DAILY_MAX_DAYS, else a bar per ISO week, the
 * first and last cut to the range. Whole weeks are read from the weekly counters, the cut ones from the days.
 */
export interface Span {
  from: string;
  to: string;
  bucket: 'day' | 'week';
  /** Each bucket's first day in the range, in order. */
  starts: string[];
  /** Week spans: the Monday of the first bucket (indexes count weeks from it), and the Mondays of the first and last
   * whole weeks in the range (first > last when none is whole). */
  firstMonday: string;
  wholeFrom: string;
  wholeTo: string;
}

export function spanOf(from: string, to: string): Span {
  const days = (at(to) - at(from)) / DAY_MS + 1;
  const bucket = days > INSIGHT_DAILY_MAX_DAYS ? 'week' : 'day';
  const firstMonday = mondayOf(from);
  const starts: string[] = [];
  if (bucket === 'day') for (let t = at(from); t <= at(to); t += DAY_MS) starts.push(isoDay(t));
  else {
    starts.push(from);
    for (let t = at(firstMonday) + 7 * DAY_MS; t <= at(to); t += 7 * DAY_MS) starts.push(isoDay(t));
  }
  const wholeFrom = from === firstMonday ? from : isoDay(at(firstMonday) + 7 * DAY_MS);
  const lastMonday = mondayOf(to);
  const wholeTo = isoDay(at(lastMonday) - (isoDay(at(lastMonday) + 6 * DAY_MS) === to ? 0 : 7 * DAY_MS));
  return { from, to, bucket, starts, firstMonday, wholeFrom, wholeTo };
}
