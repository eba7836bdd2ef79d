import { INSIGHT_RANGES, type Insights } from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

/** What the screen shows, as the URL keeps it: a link opens the same view. */
export interface InsightsView {
  /** '7' | '30' | '90' days up to today, or 'custom' (from/to). */
  range: string;
  from: string;
  to: string;
  pixel: string;
  source: string;
  stack: 'pixel' | 'source';
}

const DAY_MS = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The view named by a URL's search params; anything unknown falls back to the last 30 days by pixel. */
export function viewFromParams(p: URLSearchParams): InsightsView {
  const custom = p.get('range') === 'custom' && !!p.get('from') && !!p.get('to');
  const range = custom
    ? 'custom'
    : INSIGHT_RANGES.map(String).includes(p.get('range') ?? '')
      ? p.get('range')!
      : '30';
  return {
    range,
    from: custom ? p.get('from')! : '',
    to: custom ? p.get('to')! : '',
    pixel: p.get('pixel') ?? '',
    source: p.get('source') ?? '',
    stack: p.get('stack') === 'source' ? 'source' : 'pixel',
  };
}

/** The view as search params: defaults left out, so the plain address is the default view. */
export function viewParams(v: InsightsView): URLSearchParams {
  const p = new URLSearchParams();
  if (v.range !== '30') p.set('range', v.range);
  if (v.range === 'custom') {
    p.set('from', v.from);
    p.set('to', v.to);
  }
  if (v.pixel) p.set('pixel', v.pixel);
  if (v.source) p.set('source', v.source);
  if (v.stack !== 'pixel') p.set('stack', v.stack);
  return p;
}

/** The API's query for a view: a range in days ends today (UTC, as the counters' days are). */
export function apiQuery(v: InsightsView, now = Date.now()): string {
  const q = new URLSearchParams();
  if (v.range === 'custom') {
    q.set('from', v.from);
    q.set('to', v.to);
  } else {
    q.set('from', isoDay(now - (Number(v.range) - 1) * DAY_MS));
    q.set('to', isoDay(now));
  }
  if (v.pixel) q.set('pixel', v.pixel);
  if (v.source) q.set('source', v.source);
  q.set('stack', v.stack);
  return q.toString();
}

export const insightsApi = {
  read: (v: InsightsView) => api<Insights>(`/api/insights?${apiQuery(v)}`),
};

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
export const fmt = (n: number) => n.toLocaleString('en-US');
export const pct = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '–');
export type Bucket = Insights['bucket'];
/** A bucket's name from its first day: "12 May", or "Week of 12 May". */
export const bucketName = (day: string, bucket: Bucket) =>
  bucket === 'week' ? `Week of ${shortDay(day)}` : shortDay(day);
/** "Day" or "Week of", as a table's first column heads the buckets. */
export const bucketHeading = (bucket: Bucket) => (bucket === 'week' ? 'Week of' : 'Day');
/** "per day" or "per week". */
export const perBucket = (bucket: Bucket) => `per ${bucket}`;

/** "12 May" for a UTC day. */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
