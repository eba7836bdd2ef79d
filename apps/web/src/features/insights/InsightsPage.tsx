import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { INSIGHT_RANGES, MANUAL_SOURCE } from '@backsignal/contracts';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { buttonClass } from '../../components/ui/Button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { Link } from '../../lib/ws-router.tsx';
import { insightsApi, isoDay, viewFromParams, viewParams, type InsightsView } from './insights-api.ts';
import { FailuresSection, MatchSection, SourceRunsSection, Totals, VolumeSection } from './sections.tsx';
import { FixesSection } from './FixesSection.tsx';

/** /insights: the workspace's sends, identifiers, failures and source runs at a glance (issue 33). */
export function InsightsPage() {
  usePageMeta({ title: 'Insights | Backsignal' });
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
  const data = useQuery({
    queryKey: ['insights', viewParams(view).toString()],
    queryFn: () => insightsApi.read(view),
    placeholderData: (prev) => prev,
  });
  const change = (patch: Partial<InsightsView>) => {
    const next = { ...view, ...patch };
    if (next.range === 'custom' && (!next.from || !next.to)) {
      const today = Date.now();
      next.to ||= isoDay(today);
      next.from ||= isoDay(today - 29 * 86_400_000);
    }
    setParams(viewParams(next), { replace: true });
  };
  const report = new URLSearchParams(viewParams({ ...view, source: '', stack: 'source' }));
  const d = data.data;
  const nothing = d && d.totals.sent + d.totals.failed + d.totals.skipped === 0 && d.sourceRuns.length === 0;

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Insights</h1>
          <p className="mt-1 text-sm text-slate-600">
            What reached Meta, how well it can match, what failed and whether your sources ran.
          </p>
        </div>
        <Link
          to={`/insights/report?${report.toString()}`}
          className={buttonClass('secondary', 'px-4 py-2 text-sm')}
        >
          Client report
        </Link>
      </div>

      <Card className="p-4 sm:p-6">
        <form
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={(e) => e.preventDefault()}
          aria-label="Filters"
        >
          <SelectField
            label="Days"
            name="range"
            value={view.range}
            onChange={(e) => change({ range: e.target.value })}
          >
            {INSIGHT_RANGES.map((n) => (
              <option key={n} value={String(n)}>
                Last {n} days
              </option>
            ))}
            <option value="custom">Choose dates</option>
          </SelectField>
          <SelectField
            label="Pixel"
            name="pixel"
            value={view.pixel}
            onChange={(e) => change({ pixel: e.target.value })}
          >
            <option value="">All pixels</option>
            {d?.options.pixels.map((p) => (
              <option key={p.pixelId} value={p.pixelId}>
                {p.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Source"
            name="source"
            value={view.source}
            onChange={(e) => change({ source: e.target.value })}
          >
            <option value="">All sources and files</option>
            <option value={MANUAL_SOURCE}>Uploaded files</option>
            {d?.options.sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Stack by"
            name="stack"
            value={view.stack}
            onChange={(e) => change({ stack: e.target.value === 'source' ? 'source' : 'pixel' })}
          >
            <option value="pixel">Pixel</option>
            <option value="source">Source</option>
          </SelectField>
          {view.range === 'custom' ? (
            <>
              <TextField
                label="From"
                name="from"
                type="date"
                value={view.from}
                max={view.to}
                onChange={(e) => e.target.value && change({ from: e.target.value })}
              />
              <TextField
                label="To"
                name="to"
                type="date"
                value={view.to}
                min={view.from}
                onChange={(e) => e.target.value && change({ to: e.target.value })}
              />
            </>
          ) : null}
        </form>
      </Card>

      {data.isPending ? (
        <Spinner />
      ) : data.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {(data.error as Error).message || 'Insights could not be loaded. Please try again.'}
        </p>
      ) : nothing && !view.pixel && !view.source ? (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Nothing sent in these days yet</h2>
          <p className="mt-2 text-sm text-slate-600">
            Insights count every send once it finishes. Start with a file: upload it on the{' '}
            <Link to="/dashboard" className="font-semibold text-brand-700 hover:underline">
              Dashboard
            </Link>
            , map its columns and send it to a pixel. Or{' '}
            <Link to="/sources" className="font-semibold text-brand-700 hover:underline">
              set up a source
            </Link>{' '}
            that sends on a schedule.
          </p>
        </Card>
      ) : (
        <>
          <Totals data={d!} />
          <VolumeSection data={d!} />
          <MatchSection data={d!} />
          <FixesSection data={d!} />
          <FailuresSection data={d!} />
          <SourceRunsSection data={d!} />
        </>
      )}
    </section>
  );
}
