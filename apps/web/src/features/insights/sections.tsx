import {
  INSIGHT_DAILY_MAX_DAYS,
  INSIGHT_MATCH_KEY_LABELS,
  INSIGHT_MATCH_KEYS,
  type Insights,
} from '@backsignal/contracts';
import { Card } from '../../components/ui/Card.tsx';
import { Link } from '../../lib/ws-router.tsx';
import { ChartCard, DataTable } from './ChartCard.tsx';
import {
  FAILED_COLOUR,
  Legend,
  Lines,
  PALETTE,
  SKIPPED_COLOUR,
  StackedBars,
  type Series,
} from './charts.tsx';
import { bucketHeading, bucketName, fmt, pct, perBucket, shortDay, sum } from './insights-api.ts';

/** The Insights sections, shared by the screen and the printed client report (`print`: chart and table both). */
interface Props {
  data: Insights;
  print?: boolean;
}

/** The API's series, at most INSIGHT_MAX_SERIES and "Other": a colour each. */
export const stackSeries = (data: Insights): Series[] =>
  data.volume.series.map((s, i) => ({ label: s.label, colour: PALETTE[i]!, values: s.sent }));

export function Totals({ data }: Props) {
  const t = data.totals;
  const tiles: [string, string, string?][] = [
    ['Sent to Meta', fmt(t.sent)],
    ['Failed', fmt(t.failed)],
    ['Already at Meta, not sent again', fmt(t.skipped)],
    [
      'Match estimate',
      t.score === null ? '–' : `${t.score.toFixed(1)} / 10`,
      t.keyed ? `over ${fmt(t.keyed)} events` : undefined,
    ],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map(([label, value, note]) => (
        <Card key={label} className="break-inside-avoid p-4">
          <dt className="text-xs font-medium uppercase text-slate-500">{label}</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums text-slate-900 sm:text-2xl">{value}</dd>
          {note ? <dd className="text-xs text-slate-500">{note}</dd> : null}
        </Card>
      ))}
    </dl>
  );
}

export function VolumeSection({ data, print }: Props) {
  const series = stackSeries(data);
  const by = data.volume.stack === 'pixel' ? 'pixel' : 'source';
  const per = perBucket(data.bucket);
  const empty =
    sum(data.volume.series.flatMap((s) => s.sent)) + sum(data.volume.failed) + sum(data.volume.skipped) === 0;
  const outcomes: Series[] = [
    { label: 'Failed', colour: FAILED_COLOUR, values: data.volume.failed },
    { label: 'Skipped (already at Meta)', colour: SKIPPED_COLOUR, values: data.volume.skipped },
  ];
  return (
    <ChartCard
      title={`Events sent ${per}`}
      description={`Stacked by ${by}, days in UTC. Failed and skipped events are beside.${data.bucket === 'week' ? ` Ranges over ${INSIGHT_DAILY_MAX_DAYS} days show a bar per week (Monday to Sunday).` : ''}`}
      print={print}
      empty={
        empty ? (
          <p className="text-sm text-slate-600">
            No events were sent in these days. Upload a file on the{' '}
            <Link to="/dashboard" className="font-semibold text-brand-700 hover:underline">
              Dashboard
            </Link>{' '}
            and send it, or widen the range.
          </p>
        ) : undefined
      }
      chart={
        <div className="grid gap-4 lg:grid-cols-3 print:grid-cols-3">
          <div className="lg:col-span-2 print:col-span-2">
            <StackedBars
              days={data.days}
              bucket={data.bucket}
              series={series}
              label={`Events sent ${per} by ${by}, ${fmt(data.totals.sent)} in all, ${shortDay(data.from)} to ${shortDay(data.to)}`}
            />
            <Legend items={series} />
          </div>
          <div>
            <StackedBars
              days={data.days}
              bucket={data.bucket}
              series={outcomes}
              height={160}
              label={`Failed and skipped events ${per}: ${fmt(data.totals.failed)} failed, ${fmt(data.totals.skipped)} skipped`}
            />
            <Legend items={outcomes} />
          </div>
        </div>
      }
      table={
        <DataTable
          caption={`Events ${per} by ${by}`}
          head={[bucketHeading(data.bucket), ...series.map((s) => s.label), 'Sent', 'Failed', 'Skipped']}
          rows={data.days.map((d, i) => [
            d,
            ...series.map((s) => fmt(s.values[i] ?? 0)),
            fmt(sum(series.map((s) => s.values[i] ?? 0))),
            fmt(data.volume.failed[i]!),
            fmt(data.volume.skipped[i]!),
          ])}
        />
      }
    />
  );
}

export function MatchSection({ data, print }: Props) {
  const m = data.matchKeys;
  const share = (key: (typeof INSIGHT_MATCH_KEYS)[number]) =>
    m.keyed.map((n, i) => (n ? Math.round((m.keys[key][i]! / n) * 1000) / 10 : null));
  const series: Series[] = INSIGHT_MATCH_KEYS.map((k, i) => ({
    label: INSIGHT_MATCH_KEY_LABELS[k],
    colour: PALETTE[i]!,
    values: share(k),
  }));
  const score: Series[] = [{ label: 'Match estimate', colour: '#334155', values: m.score }];
  const uncounted = data.totals.sent - data.totals.keyed;
  const per = perBucket(data.bucket);
  return (
    <ChartCard
      title="Match keys over time"
      description={
        <>
          Share of sent events carrying each identifier, and the match estimate (0–10) {per}.
          {uncounted > 0 && data.totals.keyed > 0
            ? ` ${fmt(uncounted)} events sent before Insights counted identifiers are left out.`
            : ''}
        </>
      }
      print={print}
      empty={
        data.totals.keyed === 0 ? (
          <p className="text-sm text-slate-600">
            {data.totals.sent
              ? 'These events were sent before Insights counted identifiers. Your next send will show here.'
              : 'Nothing sent in these days yet. Once a file or source sends, the identifiers its events carried show here.'}
          </p>
        ) : undefined
      }
      chart={
        <div>
          {data.drops.length ? (
            <ul className="mb-3 space-y-1">
              {data.drops.map((d) => (
                <li
                  key={`${d.sourceName}-${d.key}`}
                  className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
                >
                  <strong>{d.sourceName}</strong>: {INSIGHT_MATCH_KEY_LABELS[d.key].toLowerCase()} on{' '}
                  {pct(d.after, 1)} of events since {shortDay(d.since)}, was {pct(d.before, 1)}. Did a column
                  vanish from the export?
                </li>
              ))}
            </ul>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-3 print:grid-cols-3">
            <div className="lg:col-span-2 print:col-span-2">
              <Lines
                days={data.days}
                bucket={data.bucket}
                series={series}
                max={100}
                format={(n) => `${n}%`}
                label={`Share of sent events carrying email, phone, name, address and external ID ${per}`}
              />
              <Legend items={series} />
            </div>
            <div>
              <Lines
                days={data.days}
                bucket={data.bucket}
                series={score}
                max={10}
                height={160}
                format={(n) => String(n)}
                label={`Match estimate ${per}, ${data.totals.score ?? '–'} over the range`}
              />
              <Legend items={score} />
            </div>
          </div>
        </div>
      }
      table={
        <DataTable
          caption={`Match keys ${per}`}
          head={[
            bucketHeading(data.bucket),
            'Events counted',
            ...INSIGHT_MATCH_KEYS.map((k) => INSIGHT_MATCH_KEY_LABELS[k]),
            'Match estimate',
          ]}
          rows={[
            ...data.days.map((d, i) => [
              d,
              fmt(m.keyed[i]!),
              ...INSIGHT_MATCH_KEYS.map((k) => pct(m.keys[k][i]!, m.keyed[i]!)),
              m.score[i] === null ? '–' : m.score[i]!.toFixed(1),
            ]),
            [
              'All days',
              fmt(data.totals.keyed),
              ...INSIGHT_MATCH_KEYS.map((k) => pct(data.totals.keys[k], data.totals.keyed)),
              data.totals.score === null ? '–' : data.totals.score.toFixed(1),
            ],
          ]}
        />
      }
    />
  );
}

export function FailuresSection({ data, print }: Props) {
  const top = Math.max(1, ...data.failures.map((f) => f.events));
  return (
    <ChartCard
      title="Failures by reason"
      description="Grouped as on a send's summary; open a send to see its rows."
      print={print}
      empty={
        data.failures.length ? undefined : (
          <p className="text-sm text-slate-600">No event failed in these days.</p>
        )
      }
      chart={
        <ul className="space-y-4">
          {data.failures.map((f) => (
            <li key={f.key}>
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span className="font-semibold text-slate-900">{f.explanation.title}</span>
                <span className="tabular-nums text-slate-700">{fmt(f.events)} events</span>
              </div>
              <div className="mt-1 h-2 rounded bg-slate-100" aria-hidden="true">
                <div
                  className="h-2 rounded"
                  style={{ width: `${(f.events / top) * 100}%`, background: FAILED_COLOUR }}
                />
              </div>
              <p className="mt-1 text-sm text-slate-600">{f.explanation.fix}</p>
              {f.explanation.metaMessage ? (
                // The fix may point at "Meta's message below": the same line as the send's summary shows.
                <p className="mt-1 rounded-lg bg-slate-50 p-2 text-xs text-slate-700">
                  <span className="font-medium">Meta says:</span>{' '}
                  {f.explanation.metaTitle ? `${f.explanation.metaTitle}: ` : ''}
                  {f.explanation.metaMessage}
                </p>
              ) : null}
              <p className="mt-1 text-sm">
                Sends:{' '}
                {f.sends.map((s, i) => (
                  <span key={s.uploadId}>
                    {i ? ', ' : ''}
                    {s.fileName ? (
                      <Link to={`/summary?fileId=${s.uploadId}`} className="text-brand-700 hover:underline">
                        {s.fileName}
                      </Link>
                    ) : (
                      'a deleted file'
                    )}{' '}
                    <span className="text-slate-500">({fmt(s.events)})</span>
                  </span>
                ))}
              </p>
            </li>
          ))}
        </ul>
      }
      table={
        <DataTable
          caption="Failed events by reason"
          head={['Reason', 'Events', 'Sends']}
          rows={data.failures.map((f) => [f.explanation.title, fmt(f.events), String(f.sends.length)])}
        />
      }
    />
  );
}

const RUN_STATES = [
  ['failed', 'Failed', '#C2410C'],
  ['paused', 'Paused', '#D97706'],
  ['sent', 'Sent', '#059669'],
  ['nothing_new', 'Nothing new', '#94A3B8'],
] as const;

export function SourceRunsSection({ data, print }: Props) {
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '–';
  const per = perBucket(data.bucket);
  const unit = data.bucket === 'week' ? 'week' : 'day';
  return (
    <ChartCard
      title="Source runs"
      description={`Each source's runs ${per}: the worst outcome of the ${unit} colours it.`}
      print={print}
      empty={
        data.sourceRuns.length ? undefined : (
          <p className="text-sm text-slate-600">
            No sources yet.{' '}
            <Link to="/sources" className="font-semibold text-brand-700 hover:underline">
              Set up a source
            </Link>{' '}
            to import a CSV URL, an SFTP folder or an S3 bucket on a schedule.
          </p>
        )
      }
      chart={
        <div>
          <div className="overflow-x-auto" role="region" aria-label={`Source runs ${per}`} tabIndex={0}>
            <div
              className="min-w-[36rem] space-y-2"
              role="img"
              aria-label={`Runs ${per} of ${data.sourceRuns.length} sources`}
            >
              {data.sourceRuns.map((s) => (
                <div key={s.sourceId} className="grid grid-cols-[10rem_1fr] items-center gap-2 text-sm">
                  <div className="truncate">
                    <span className="font-medium text-slate-900">{s.name}</span>
                    <span className="block text-xs text-slate-500">
                      {s.status === 'paused'
                        ? 'Paused'
                        : s.nextRunAt
                          ? `Due ${when(s.nextRunAt)}`
                          : s.status === null
                            ? 'Deleted'
                            : 'Not scheduled'}
                    </span>
                  </div>
                  <div className="flex h-5 gap-px">
                    {data.days.map((d, i) => {
                      const state = RUN_STATES.find(([k]) => s.runs[k][i]! > 0);
                      const name = bucketName(d, data.bucket);
                      return (
                        <span
                          key={d}
                          className="flex-1 rounded-sm"
                          style={{ background: state ? state[2] : '#F1F5F9' }}
                          title={
                            state
                              ? `${name}: ${RUN_STATES.filter(([k]) => s.runs[k][i])
                                  .map(([k, l]) => `${s.runs[k][i]} ${l.toLowerCase()}`)
                                  .join(', ')}`
                              : `${name}: no run`
                          }
                        />
                      );
                    })}
                  </div>
                </div>
              ))}
            </div>
          </div>
          <Legend items={RUN_STATES.map(([, label, colour]) => ({ label, colour }))} />
        </div>
      }
      table={
        <DataTable
          caption={`Source runs ${per}`}
          head={['Source', bucketHeading(data.bucket), 'Sent', 'Nothing new', 'Paused', 'Failed']}
          rows={data.sourceRuns.flatMap((s) => {
            const ran = data.days.flatMap((d, i) =>
              RUN_STATES.some(([k]) => s.runs[k][i]) ? [[d, i] as const] : [],
            );
            return ran.length
              ? ran.map(([d, i]) => [
                  s.name,
                  d,
                  s.runs.sent[i]!,
                  s.runs.nothing_new[i]!,
                  s.runs.paused[i]!,
                  s.runs.failed[i]!,
                ])
              : [[s.name, `No run; next ${when(s.nextRunAt)}`, 0, 0, 0, 0]];
          })}
        />
      }
    />
  );
}
