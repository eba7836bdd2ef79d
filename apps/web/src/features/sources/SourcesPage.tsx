import { Link } from '../../lib/ws-router.tsx';
import { useQuery } from '@tanstack/react-query';
import type { SourceSummary } from '@backsignal/contracts';
import { buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { formatWhen, RUN_STATUS_TEXT, sourcesApi } from './sources-api.ts';
import { KIND_TEXT } from './connection-form.ts';
import { SourceStatus } from './SourceStatus.tsx';
import { useCan } from '../../lib/workspace.tsx';

export function lastRunText(s: SourceSummary) {
  const r = s.lastRun;
  if (!r) return 'Not run yet';
  return `${formatWhen(r.startedAt)} · ${RUN_STATUS_TEXT[r.status]} · ${r.sent} sent · ${r.rowsSkipped} skipped · ${r.failed} failed`;
}

/** /sources: every source with its schedule, pixel, last run and next run. */
export function SourcesPage() {
  // Creating, editing and deleting sources are an admin's (decision 0103).
  const canManage = useCan('admin');
  usePageMeta({ title: 'Sources | Backsignal' });
  const list = useQuery({ queryKey: ['sources'], queryFn: sourcesApi.list, refetchInterval: 10_000 });
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sources</h1>
          <p className="mt-1 text-sm text-slate-600">
            Connect a CSV link, an SFTP folder or an S3 bucket once; Backsignal fetches new files on a
            schedule and sends only rows Meta has not received yet.
          </p>
        </div>
        {canManage && (
          <Link to="/sources/new" className={buttonClass('primary')}>
            New source
          </Link>
        )}
      </div>
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load sources.
        </p>
      ) : list.data.sources.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">
            No sources yet. A Google Sheet published as CSV, a CRM&apos;s export link, or the SFTP folder or
            bucket your CRM drops exports into is a good first one.
          </p>
        </Card>
      ) : (
        <ul className="space-y-3">
          {list.data.sources.map((s) => (
            <li key={s.id}>
              <Card className="space-y-2">
                <div className="flex flex-wrap items-center gap-2">
                  <Link to={`/sources/${s.id}`} className="font-semibold text-brand-700 hover:underline">
                    {s.name}
                  </Link>
                  <SourceStatus status={s.status} />
                  <span className="text-xs text-slate-500">{KIND_TEXT[s.kind]}</span>
                </div>
                <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                  <div>
                    <dt className="inline text-slate-500">Schedule: </dt>
                    <dd className="inline text-slate-800">
                      {s.scheduleText} ({s.timeZone})
                    </dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">Pixel: </dt>
                    <dd className="inline text-slate-800">
                      {s.pixelAccount ? `${s.pixelAccount.name} (${s.pixelAccount.pixelId})` : 'None'}
                    </dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="inline text-slate-500">Last run: </dt>
                    <dd className="inline text-slate-800">{lastRunText(s)}</dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">Next run: </dt>
                    <dd className="inline text-slate-800">
                      {s.status === 'paused' ? 'Paused' : formatWhen(s.nextRunAt)}
                    </dd>
                  </div>
                </dl>
                {s.pauseReason && (
                  <p className="text-sm text-amber-800 [overflow-wrap:anywhere]">{s.pauseReason}</p>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
