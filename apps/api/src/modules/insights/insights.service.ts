import {
  INSIGHT_FIX_GROUPS,
  INSIGHT_MATCH_KEYS,
  INSIGHT_MAX_SERIES,
  INSIGHT_OTHER_SERIES,
  INSIGHT_RUN_OUTCOMES,
  MANUAL_SOURCE,
  type Insights,
  type InsightFixGroup,
  type InsightsFailure,
  type InsightMatchKey,
  type InsightsQuery,
  type InsightsSeries,
  type InsightsSourceRuns,
} from '@backsignal/contracts';
import { explainMetaError, type Verdict } from '@backsignal/core';
import type { Queryable } from '../../db/db.ts';
import { keyFalls } from './insights.key-falls.ts';
import {
  insightsRepo,
  type FailureReason,
  type InsightsFilter,
  type SourceRunsRow,
} from './insights.repo.ts';
import { DAY_MS, isoDay, spanOf } from './insights-span.ts';

const DEFAULT_DAYS = 30;
const SENDS_PER_REASON = 10;
/** A drop note needs this many keyed events on both sides, and an identifier most events carried before. */
const DROP_MIN_EVENTS = 10;
const DROP_MIN_SHARE = 0.5;
const UPLOADS_LABEL = 'Uploaded files';
const DELETED_SOURCE = 'Deleted source';

/** Names in the order a person sorts them: "Source 2" before "Source 10". */
const byName = new Intl.Collator('en', { numeric: true }).compare;

/** The query's days (UTC, both ends included): the last 30 days to today by default. */
function dayRange(q: Pick<InsightsQuery, 'from' | 'to'>, now: Date): { from: string; to: string } {
  const to = q.to ?? isoDay(now.getTime());
  return { to, from: q.from ?? isoDay(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS) };
}

/**
 * Where a drop is looked for: the last quarter of the range's buckets, at most 7 of them (a 7-day range compares its
 * last two days with the five before), compared with at most four times as many days before them (a 90-day range:
 * its last week with the four weeks before, not the whole quarter; a fall is news against the recent weeks, and a
 * bar per day reads 35 days of counters for it instead of 90). Weeks read the weekly counters, all of the range.
 */
function dropWindow(days: string[], bucket: 'day' | 'week') {
  const at = days.length - Math.min(7, Math.max(2, Math.ceil(days.length / 4)));
  const since = bucket === 'day' ? days[Math.max(0, at - 4 * (days.length - at))] : undefined;
  return { split: days[at]!, since };
}

/** The Insights screen's numbers, from the counters only: never a run's batches or a file (decisions 0110, 0122). */
export async function readInsights(
  db: Queryable,
  workspaceId: string,
  q: InsightsQuery,
  now = new Date(),
): Promise<Insights> {
  const { from, to } = dayRange(q, now);
  const span = spanOf(from, to);
  const days = span.starts;
  const f: InsightsFilter = { workspaceId, span, pixelId: q.pixel ?? null, source: q.source ?? null };
  const drop = dropWindow(days, span.bucket);
  const [volume, bucketTotals, keySums, failures, runs, names] = await Promise.all([
    insightsRepo.volume(db, f, q.stack),
    insightsRepo.bucketTotals(db, f),
    days.length >= 2 ? insightsRepo.keySums(db, f, drop.split, drop.since) : Promise.resolve([]),
    insightsRepo.failures(db, f),
    insightsRepo.sourceRuns(db, f),
    insightsRepo.names(db, workspaceId),
  ]);
  const zeros = () => days.map(() => 0);
  const pixelName = new Map(names.pixels.map((p) => [p.pixel_id, p.name]));
  const source = new Map(names.sources.map((s) => [s.id, s]));
  const sourceName = (id: string) =>
    id === MANUAL_SOURCE ? UPLOADS_LABEL : (source.get(id)?.name ?? DELETED_SOURCE);
  const pixelLabel = (id: string) => (pixelName.has(id) ? `${pixelName.get(id)} (${id})` : id);

  const series = new Map<string, number[]>();
  const failed = zeros();
  const skipped = zeros();
  const keyed = zeros();
  const tenths = zeros();
  const byKey = Object.fromEntries(INSIGHT_MATCH_KEYS.map((k) => [k, zeros()])) as Record<
    InsightMatchKey,
    number[]
  >;
  const totals = { sent: 0, failed: 0, skipped: 0, keyed: 0, tenths: 0, fixesCounted: 0 };
  const fixed = Object.fromEntries(INSIGHT_FIX_GROUPS.map((g) => [g, 0])) as Record<InsightFixGroup, number>;
  for (const r of volume) {
    series.set(r.stack, r.sent);
    totals.sent += r.sent.reduce((a, b) => a + b, 0);
  }
  for (const r of bucketTotals) {
    const i = r.i;
    failed[i]! += r.failed;
    skipped[i]! += r.skipped;
    keyed[i]! += r.keyed;
    tenths[i]! += r.tenths;
    for (const k of INSIGHT_MATCH_KEYS) byKey[k][i]! += r.keys[k];
    totals.failed += r.failed;
    totals.skipped += r.skipped;
    totals.keyed += r.keyed;
    totals.tenths += r.tenths;
    totals.fixesCounted += r.fixesCounted;
    for (const g of INSIGHT_FIX_GROUPS) fixed[g] += r.fixed[g];
  }
  const label = q.stack === 'pixel' ? pixelLabel : sourceName;

  return {
    from,
    to,
    bucket: span.bucket,
    days,
    options: {
      pixels: [...new Set([...pixelName.keys(), ...(q.stack === 'pixel' ? series.keys() : [])])]
        .sort()
        .map((pixelId) => ({ pixelId, name: pixelLabel(pixelId) })),
      sources: names.sources.map((s) => ({ id: s.id, name: s.name })).sort((a, b) => byName(a.name, b.name)),
    },
    totals: {
      sent: totals.sent,
      failed: totals.failed,
      skipped: totals.skipped,
      keyed: totals.keyed,
      score: totals.keyed ? Math.round(totals.tenths / totals.keyed) / 10 : null,
      keys: Object.fromEntries(
        INSIGHT_MATCH_KEYS.map((k) => [k, byKey[k].reduce((a, b) => a + b, 0)]),
      ) as Record<InsightMatchKey, number>,
      fixesCounted: totals.fixesCounted,
      fixed,
    },
    volume: {
      stack: q.stack,
      series: topSeries(series, label),
      failed,
      skipped,
    },
    matchKeys: {
      keyed,
      keys: byKey,
      score: keyed.map((n, i) => (n ? Math.round(tenths[i]! / n) / 10 : null)),
    },
    drops: keyFalls(keySums)
      .filter((s) => {
        if (s.keyedBefore < DROP_MIN_EVENTS || s.keyedAfter < DROP_MIN_EVENTS) return false;
        const before = s.before / s.keyedBefore;
        return before >= DROP_MIN_SHARE && s.after / s.keyedAfter < before / 2;
      })
      .map((s) => ({
        sourceId: s.source === MANUAL_SOURCE ? null : s.source,
        sourceName: sourceName(s.source),
        key: s.key,
        since: s.lowSince,
        before: s.before / s.keyedBefore,
        after: s.after / s.keyedAfter,
      }))
      .sort((a, b) => byName(a.sourceName, b.sourceName) || a.key.localeCompare(b.key)),
    failures: await failureGroups(db, workspaceId, failures),
    sourceRuns: sourceTimeline(runs, days.length, names.sources, q, sourceName),
  };
}

/**
 * The stacks most sent first (equal ones by key, not in whatever order the database grouped them), at most
 * INSIGHT_MAX_SERIES and the rest summed as one: a chart tells no more colours apart, and the screen's table shows
 * what the chart does.
 */
function topSeries(series: Map<string, number[]>, label: (key: string) => string): InsightsSeries[] {
  const ranked = [...series]
    .map(([key, sent]) => ({ key, total: sent.reduce((x, y) => x + y, 0), sent }))
    .sort((a, b) => b.total - a.total || (a.key < b.key ? -1 : 1));
  const shown = ranked.length > INSIGHT_MAX_SERIES + 1 ? ranked.slice(0, INSIGHT_MAX_SERIES) : ranked;
  const out = shown.map(({ key, sent }) => ({ key, label: label(key), sent }));
  const rest = ranked.slice(shown.length);
  if (rest.length)
    out.push({
      key: INSIGHT_OTHER_SERIES,
      label: `Other (${rest.length})`,
      sent: rest[0]!.sent.map((_, i) => rest.reduce((n, s) => n + s.sent[i]!, 0)),
    });
  return out;
}

/** The summary's groups (verdict, code, subcode, title, message), each with its 10 sends with the most failed. */
async function failureGroups(
  db: Queryable,
  workspaceId: string,
  reasons: FailureReason[],
): Promise<InsightsFailure[]> {
  const top = reasons.map((r) =>
    r.sends
      .sort(
        (a, b) =>
          b.events - a.events ||
          (a.day !== b.day ? (a.day < b.day ? 1 : -1) : a.uploadId < b.uploadId ? -1 : 1),
      )
      .slice(0, SENDS_PER_REASON),
  );
  const names = await insightsRepo.fileNames(db, workspaceId, [
    ...new Set(top.flatMap((sends) => sends.map((s) => s.uploadId))),
  ]);
  return reasons
    .map((r, i) => ({
      key: [r.verdict, r.error_code, r.error_subcode, r.error_title, r.error_message].join('|'),
      explanation: explainMetaError(r.error_raw, (r.verdict as Verdict | null) ?? null),
      events: r.events,
      sends: top[i]!.map((s) => ({ ...s, fileName: names.get(s.uploadId) ?? null })),
    }))
    .sort((a, b) => b.events - a.events);
}

type SourceName = {
  id: string;
  name: string;
  status: 'active' | 'paused';
  next_run_at: Date | null;
  pixel_id: string | null;
};

/** Every source with runs in the range, and every current one in scope (a source that never ran shows that). */
function sourceTimeline(
  runs: SourceRunsRow[],
  buckets: number,
  sources: SourceName[],
  q: InsightsQuery,
  sourceName: (id: string) => string,
): InsightsSourceRuns[] {
  const out = new Map<string, InsightsSourceRuns>();
  const byId = new Map(sources.map((s) => [s.id, s]));
  const entry = (id: string) => {
    let e = out.get(id);
    if (!e) {
      const s = byId.get(id);
      const zeros = () => new Array<number>(buckets).fill(0);
      e = {
        sourceId: id,
        name: sourceName(id),
        status: s?.status ?? null,
        nextRunAt: s?.next_run_at?.toISOString() ?? null,
        runs: Object.fromEntries(INSIGHT_RUN_OUTCOMES.map((o) => [o, zeros()])) as InsightsSourceRuns['runs'],
      };
      out.set(id, e);
    }
    return e;
  };
  if (q.source !== MANUAL_SOURCE)
    for (const s of sources)
      if ((!q.source || q.source === s.id) && (!q.pixel || q.pixel === s.pixel_id)) entry(s.id);
  for (const r of runs) entry(r.source).runs = r.runs;
  return [...out.values()].sort((a, b) => byName(a.name, b.name));
}
