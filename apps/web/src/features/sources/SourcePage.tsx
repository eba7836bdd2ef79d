import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { SourceRunSummary } from '@backsignal/contracts';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { formatWhen, RUN_STATUS_TEXT, sourcesApi } from './sources-api.ts';
import { KIND_TEXT } from './connection-form.ts';
import { connectionItems } from './connection-summary.tsx';
import { SourceStatus } from './SourceStatus.tsx';
import { useCan } from '../../lib/workspace.tsx';

/** /sources/:id: the source's runs (each opens the send summary), its settings, pause/resume, run now. */
export function SourcePage() {
  // Running, pausing and resuming are a member's; editing and deleting an admin's (decision 0103).
  const canRun = useCan('member');
  const canManage = useCan('admin');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const [withUploads, setWithUploads] = useState(false);
  const source = useQuery({
    queryKey: ['source', id],
    queryFn: () => sourcesApi.get(id),
    refetchInterval: 5000,
  });
  const runs = useQuery({
    queryKey: ['source-runs', id],
    queryFn: () => sourcesApi.runs(id),
    refetchInterval: 5000,
  });
  usePageMeta({ title: `${source.data?.name ?? 'Source'} | Backsignal` });
  if (source.isError) return <p role="alert">Source not found.</p>;
  if (!source.data) return <Spinner />;
  const s = source.data;
  /** Answers whether it worked (a failed delete stays on the page). */
  const act = async (work: () => Promise<{ message: string }>) => {
    try {
      toast.success((await work()).message);
    } catch (err) {
      toast.error(errorMessage(err, 'That did not work. Please try again.'));
      return false;
    }
    await queryClient.invalidateQueries({ queryKey: ['source', id] });
    await queryClient.invalidateQueries({ queryKey: ['source-runs', id] });
    await queryClient.invalidateQueries({ queryKey: ['sources'] });
    return true;
  };

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Link to="/sources" className="text-sm text-brand-700 hover:underline">
            ← Sources
          </Link>
          <h1 className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight text-slate-900">
            {s.name} <SourceStatus status={s.status} />
          </h1>
          {s.pauseReason && (
            <p className="mt-1 text-sm text-amber-800 [overflow-wrap:anywhere]">{s.pauseReason}</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {canRun && <Button onClick={() => void act(() => sourcesApi.runNow(id))}>Run now</Button>}
          {!canRun ? null : s.status === 'active' ? (
            <Button variant="secondary" onClick={() => void act(() => sourcesApi.pause(id))}>
              Pause
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => void act(() => sourcesApi.resume(id))}>
              Resume
            </Button>
          )}
          {canManage && (
            <>
              <Link to={`/sources/${id}/edit`} className={buttonClass('secondary')}>
                Edit
              </Link>
              <Button variant="danger-outline" onClick={() => setConfirm(true)}>
                Delete
              </Button>
            </>
          )}
        </div>
      </div>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">Settings</h2>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Item label="Kind">{KIND_TEXT[s.kind]}</Item>
          {connectionItems(s.connection).map(([label, value]) => (
            <Item key={label} label={label}>
              {value}
            </Item>
          ))}
          <Item label="Schedule">
            {s.scheduleText} ({s.timeZone})
          </Item>
          <Item label="Next run">{s.status === 'paused' ? 'Paused' : formatWhen(s.nextRunAt)}</Item>
          <Item label="Pixel">
            {s.pixelAccount ? `${s.pixelAccount.name} (${s.pixelAccount.pixelId})` : 'None'}
          </Item>
          <Item label="Mapped columns">{Object.keys(s.mappings).join(', ')}</Item>
          <Item label="Pauses when more than">
            {Math.round(s.errorThreshold * 100)}% of new rows have errors
          </Item>
        </dl>
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">Runs</h2>
        {!runs.data ? (
          <Spinner />
        ) : runs.data.runs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            No runs yet. The first one is at the next run time, or now with "Run now".
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {runs.data.runs.map((r) => (
              <RunRow key={r.id} run={r} />
            ))}
          </ul>
        )}
      </Card>

      <Dialog open={confirm} title="Delete this source?" onClose={() => setConfirm(false)}>
        <p className="text-sm text-slate-600">
          Its schedule stops and its run history goes.
          {s.uploadCount > 0 &&
            ' The files it imported stay on the dashboard, among your uploaded files, unless you delete them too.'}
        </p>
        {s.uploadCount > 0 && (
          <label className="mt-3 flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
              checked={withUploads}
              onChange={(e) => setWithUploads(e.target.checked)}
            />
            <span>
              Also delete the {s.uploadCount === 1 ? 'file' : `${s.uploadCount} files`} this source imported
            </span>
          </label>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirm(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() =>
              void act(() => sourcesApi.remove(id, withUploads && s.uploadCount > 0)).then((done) => {
                if (!done) return;
                // Its files leave the dashboard, or join the files uploaded by hand.
                void queryClient.invalidateQueries({ queryKey: ['uploads'] });
                navigate('/sources');
              })
            }
          >
            Delete
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-800">{children}</dd>
    </div>
  );
}

function RunRow({ run }: { run: SourceRunSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span className="font-medium text-slate-900">{formatWhen(run.startedAt)}</span>
        <span className="text-slate-600">{run.trigger === 'manual' ? 'Run now' : 'Scheduled'}</span>
        <span className="font-semibold text-slate-800">{RUN_STATUS_TEXT[run.status]}</span>
        {run.itemName && <span className="break-all font-mono text-xs text-slate-700">{run.itemName}</span>}
        <span className="text-slate-600">
          {run.rowsRead} rows · {run.sent} sent · {run.alreadyDelivered} already delivered · {run.rowsSkipped}{' '}
          skipped · {run.failed} failed
        </span>
        {run.uploadId && run.status === 'sent' && (
          <Link to={`/summary?fileId=${run.uploadId}`} className="text-brand-700 hover:underline">
            Send summary
          </Link>
        )}
        {run.skippedRows.length > 0 && (
          <button type="button" className="text-brand-700 hover:underline" onClick={() => setOpen((o) => !o)}>
            {open ? 'Hide skipped rows' : 'Show skipped rows'}
          </button>
        )}
      </div>
      {run.message && <p className="mt-1 text-slate-700 [overflow-wrap:anywhere]">{run.message}</p>}
      {open && (
        <ul className="mt-2 space-y-1 rounded-lg bg-slate-50 p-2 text-xs text-slate-700">
          {run.skippedRows.map((r) => (
            <li key={r.rowNumber}>
              Row {r.rowNumber}: {r.message}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
