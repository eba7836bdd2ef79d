import { Link } from '../../lib/ws-router.tsx';
import { useQuery } from '@tanstack/react-query';
import { buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { formatWhen, sourcesApi } from './sources-api.ts';
import { lastRunText } from './SourcesPage.tsx';
import { SourceStatus } from './SourceStatus.tsx';
import { SourceUploads } from './SourceUploads.tsx';
import { useCan } from '../../lib/workspace.tsx';

/** The dashboard's sources, beside the uploads: each with its last and next run, and the files it imported. */
export function SourcesOverview() {
  const list = useQuery({ queryKey: ['sources'], queryFn: sourcesApi.list });
  const sources = list.data?.sources ?? [];
  const canManage = useCan('admin');
  return (
    <Card className="p-0!">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-6 py-4">
        <h2 className="text-base font-semibold text-slate-900">Sources</h2>
        <Link
          to={sources.length || !canManage ? '/sources' : '/sources/new'}
          className={buttonClass('secondary')}
        >
          {sources.length || !canManage ? 'All sources' : 'Connect a source'}
        </Link>
      </div>
      {list.isError ? (
        <p role="alert" className="px-6 py-4 text-sm text-red-700">
          Failed to load sources.
        </p>
      ) : sources.length === 0 ? (
        <p className="px-6 py-4 text-sm text-slate-600">
          {list.isPending
            ? 'Loading…'
            : 'Send a sheet or CRM export to Meta on a schedule, without uploading it each time.'}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {sources.slice(0, 5).map((s) => (
            <li key={s.id} className="px-6 py-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/sources/${s.id}`} className="font-medium text-brand-700 hover:underline">
                  {s.name}
                </Link>
                <SourceStatus status={s.status} />
                <span className="text-slate-500">{s.scheduleText}</span>
              </div>
              <p className="mt-0.5 text-slate-600">
                Last run: {lastRunText(s)} · Next:{' '}
                {s.status === 'paused' ? 'Paused' : formatWhen(s.nextRunAt)}
              </p>
              <SourceUploads source={s} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
