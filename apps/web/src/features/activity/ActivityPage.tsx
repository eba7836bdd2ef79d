import { useEffect, useState, type ReactNode } from 'react';
import { Link } from '../../lib/ws-router.tsx';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { ACTIVITY_KIND_LABELS, ACTIVITY_KINDS, roleAtLeast, type ActivityKind } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { activityApi, detailsText, NO_FILTERS, type ActivityFilters } from './activity-api.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings → Activity: who did what in the workspace, for its owners and admins (decision 0106). */
export function ActivityPage() {
  usePageMeta({ title: 'Workspace activity | Backsignal' });
  const workspace = useQuery({ queryKey: ['workspace'], queryFn: activityApi.workspace });
  const allowed = workspace.data ? roleAtLeast(workspace.data.role, 'admin') : false;
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const people = useQuery({ queryKey: ['activity-people'], queryFn: activityApi.people, enabled: allowed });
  const log = useInfiniteQuery({
    queryKey: ['activity', filters],
    queryFn: ({ pageParam }) => activityApi.page(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: allowed,
  });
  const [downloading, setDownloading] = useState(false);
  const set = (k: keyof ActivityFilters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [k]: e.target.value }));

  const downloadCsv = async () => {
    setDownloading(true);
    try {
      await activityApi.downloadCsv(filters);
    } catch (err) {
      toast.error((err as Error).message || 'The download failed. Please try again.');
    } finally {
      setDownloading(false);
    }
  };

  if (workspace.isPending) return <Spinner />;
  if (!allowed)
    return (
      <section className="mx-auto max-w-2xl">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Workspace activity</h1>
        <Card className="mt-6">
          <p className="text-sm text-slate-600">
            Only admins and owners of this workspace can see its activity.
          </p>
        </Card>
      </section>
    );

  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/settings" className="text-brand-700 hover:underline">
              Settings
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Workspace activity</h1>
          <p className="mt-1 text-sm text-slate-600">
            Who signed in, uploaded, sent and changed settings in {workspace.data?.name}. No customer data is
            kept here.
          </p>
        </div>
        <Button variant="secondary" onClick={() => void downloadCsv()} disabled={downloading}>
          {downloading ? 'Downloading...' : 'Download CSV'}
        </Button>
      </div>
      <Card>
        <div className="grid gap-4 sm:grid-cols-4">
          <SelectField label="Person" name="person" value={filters.person} onChange={set('person')}>
            <option value="">Everyone</option>
            {people.data?.people.map((p) => (
              <option key={p.userId} value={p.userId}>
                {p.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="What" name="kind" value={filters.kind} onChange={set('kind')}>
            <option value="">Everything</option>
            {ACTIVITY_KINDS.map((k: ActivityKind) => (
              <option key={k} value={k}>
                {ACTIVITY_KIND_LABELS[k]}
              </option>
            ))}
          </SelectField>
          <TextField label="From" name="from" type="date" value={filters.from} onChange={set('from')} />
          <TextField label="To" name="to" type="date" value={filters.to} onChange={set('to')} />
        </div>
      </Card>
      {log.isPending ? (
        <Spinner />
      ) : log.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {(log.error as Error).message || 'Failed to load the activity.'}
        </p>
      ) : entries.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">Nothing recorded for these filters.</p>
        </Card>
      ) : (
        <Card className="p-0 sm:overflow-x-auto">
          {/* Under sm each entry is a block of labelled lines: five columns do not fit 390 px. */}
          <table className="w-full text-left text-sm">
            <thead className="hidden border-b border-slate-200 text-xs uppercase text-slate-500 sm:table-header-group">
              <tr>
                <th className="px-4 py-2 font-semibold">When</th>
                <th className="px-4 py-2 font-semibold">Who</th>
                <th className="px-4 py-2 font-semibold">What</th>
                <th className="px-4 py-2 font-semibold">Details</th>
                <th className="px-4 py-2 font-semibold">IP address</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr
                  key={e.id}
                  className="block border-b border-slate-100 py-2 last:border-0 sm:table-row sm:py-0"
                >
                  <Cell label="When" className="text-slate-600 sm:whitespace-nowrap">
                    <time dateTime={e.at}>{when(e.at)}</time>
                  </Cell>
                  <Cell label="Who" className="break-words">
                    {e.actorUserId ? e.actorLabel : 'Schedule'}
                  </Cell>
                  <Cell label="What">
                    <span className="font-medium text-slate-900">
                      {ACTIVITY_KIND_LABELS[e.kind] ?? e.kind}
                    </span>
                    {e.subject ? <span className="text-slate-600"> · {e.subject}</span> : null}
                  </Cell>
                  <Cell label="Details" className="text-slate-600">
                    {detailsText(e.details)}
                  </Cell>
                  <Cell label="IP address" className="text-slate-500">
                    {e.ip ?? ''}
                  </Cell>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {log.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            {log.isFetchingNextPage ? 'Loading...' : 'Show older'}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The Settings page's way to the owners' and admins' screens (the log, webhooks), shown to them only. A plain request, not a query: the
 * Settings page renders outside any query client in its tests, and one read on mount is all it needs.
 */
export function ActivityLink() {
  const [allowed, setAllowed] = useState(false);
  useEffect(() => {
    let live = true;
    activityApi.workspace().then(
      (w) => live && setAllowed(roleAtLeast(w.role, 'admin')),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!allowed) return null;
  return (
    <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
      <Link to="/settings/activity" className="font-semibold text-brand-700 hover:underline">
        Workspace activity
      </Link>
      <Link to="/settings/webhooks" className="font-semibold text-brand-700 hover:underline">
        Webhooks
      </Link>
    </p>
  );
}

/** A table cell that, under sm, is a line of its own led by its column's name. */
function Cell({
  label,
  className = '',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  // An empty line would show its label alone.
  const display = children === '' || children === null ? 'hidden' : 'block';
  return (
    <td className={`${display} px-4 py-0.5 sm:table-cell sm:py-2 ${className}`}>
      <span className="mr-1 text-xs font-semibold uppercase text-slate-500 sm:hidden">{label}</span>
      {children}
    </td>
  );
}
