import { useId, useState } from 'react';
import { Link } from '../../lib/ws-router.tsx';
import { useQuery } from '@tanstack/react-query';
import type { SourceSummary } from '@backsignal/contracts';
import { fileBadge } from '../dashboard/file-badge.ts';
import { routeForStatus } from '../workflow/workflow-api.ts';
import { sourcesApi } from './sources-api.ts';

const SHOWN = 5;
const files = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'file' : 'files'}`;

/**
 * The dashboard's group of a source's uploads, under the source: its latest files, folded until asked. They are
 * not in "Uploaded files" (files uploaded by hand), so an hourly source does not bury them.
 */
export function SourceUploads({ source }: { source: Pick<SourceSummary, 'id' | 'name' | 'uploadCount'> }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const list = useQuery({
    queryKey: ['source-uploads', source.id],
    queryFn: () => sourcesApi.uploads(source.id, SHOWN),
    enabled: open,
  });
  if (!source.uploadCount) return null;
  const total = list.data?.total ?? source.uploadCount;
  return (
    <div className="mt-1">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        {open ? '▾' : '▸'} {files(source.uploadCount)} imported by {source.name}
      </button>
      {open && (
        <div id={listId} className="mt-2 rounded-lg bg-slate-50 px-3 py-2">
          {list.isPending ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : list.isError ? (
            <p role="alert" className="text-sm text-red-700">
              Failed to load the files of this source.
            </p>
          ) : (
            <ul className="divide-y divide-slate-200" aria-label={`Files imported by ${source.name}`}>
              {list.data.uploads.map((f) => {
                const badge = fileBadge(f);
                return (
                  <li key={f.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                    <Link
                      to={routeForStatus(f.status, f.id)}
                      className="min-w-0 basis-full truncate text-brand-700 hover:underline sm:basis-0 sm:flex-1"
                    >
                      {f.fileName}
                    </Link>
                    <span className="text-xs text-slate-500">
                      {f.rowCount.toLocaleString()} {f.rowCount === 1 ? 'row' : 'rows'} ·{' '}
                      {new Date(f.createdAt).toLocaleString()}
                    </span>
                    {badge.detail && <span className="text-xs text-slate-600">{badge.detail}</span>}
                    <span
                      className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badge.tone}`}
                    >
                      {badge.label}
                    </span>
                  </li>
                );
              })}
              {total > SHOWN && (
                <li className="py-2 text-sm">
                  <Link to={`/sources/${source.id}`} className="text-brand-700 hover:underline">
                    Latest {SHOWN} of {files(total)}: every run is on the source's page
                  </Link>
                </li>
              )}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
