import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { BatchFilter, BatchSummary, DeliverySummary } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { summaryApi } from './summary-api.ts';
import { useCan } from '../../lib/workspace.tsx';

/** 'Rows 102–151 except 120': a range whose bad row went out in a batch of its own says so. */
export function batchRows(b: BatchSummary): string {
  const range = b.firstRow === b.lastRow ? `Row ${b.firstRow}` : `Rows ${b.firstRow}–${b.lastRow}`;
  if (b.rowsNotInBatchCount === 0) return range;
  const listed = b.rowsNotInBatch.join(', ');
  return b.rowsNotInBatchCount <= b.rowsNotInBatch.length
    ? `${range} except ${listed}`
    : `${range} except ${b.rowsNotInBatchCount} rows (${listed}, …)`;
}

const STATUS: Record<BatchSummary['status'], { label: string; tone: string }> = {
  sent: { label: 'Sent', tone: 'bg-green-100 text-green-800' },
  failed: { label: 'Failed', tone: 'bg-red-100 text-red-800' },
  sending: { label: 'Sending', tone: 'bg-brand-100 text-brand-700' },
  pending: { label: 'Waiting', tone: 'bg-slate-100 text-slate-700' },
};

/**
 * Batch details (spec §3, §9), collapsed: why rows failed is told once per reason above, so this is the
 * detail for whoever wants it. Filtered by outcome and fetched a page at a time, so the page stays short
 * whatever the number of batches; while sending it follows the run live.
 */
export function BatchList({ summary, fileId }: { summary: DeliverySummary; fileId: string }) {
  const [filter, setFilter] = useState<BatchFilter>('all');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState(false);
  const p = summary.progress;
  // Changes whenever a batch settles: a live run's list follows it without polling on its own.
  const stamp = `${summary.status}:${p.batchesSent}:${p.batchesFailed}:${p.batchesRemaining}`;
  const page = useQuery({
    queryKey: ['batches', fileId, filter, offset, stamp],
    queryFn: () => summaryApi.batches(fileId, filter, offset),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const filters: { key: BatchFilter; label: string; count: number }[] = [
    { key: 'all', label: 'All', count: summary.totalBatches },
    { key: 'failed', label: 'Failed', count: p.batchesFailed },
    { key: 'sent', label: 'Sent', count: p.batchesSent },
    { key: 'open', label: 'Not sent yet', count: p.batchesRemaining },
  ];
  const choose = (f: BatchFilter) => {
    setFilter(f);
    setOffset(0);
  };
  const data = page.data;
  const total = data?.total ?? 0;
  const limit = data?.limit ?? 20;
  return (
    <div className="mt-6 rounded-2xl border border-slate-200 bg-white shadow-sm">
      <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary className="cursor-pointer px-6 py-4">
          <span className="text-lg font-semibold text-slate-900">Batch details</span>
          <span className="mt-1 block text-sm text-slate-600">
            {summary.totalBatches.toLocaleString()} {summary.totalBatches === 1 ? 'batch' : 'batches'}:{' '}
            {p.batchesSent.toLocaleString()} sent, {p.batchesFailed.toLocaleString()} failed
            {p.batchesRemaining ? `, ${p.batchesRemaining.toLocaleString()} not sent yet` : ''}.
          </span>
        </summary>
        <div className="border-t border-slate-200 px-4 pb-4 sm:px-6">
          <div role="group" aria-label="Show batches" className="mt-4 flex flex-wrap gap-2">
            {filters.map((f) => (
              <button
                key={f.key}
                type="button"
                aria-pressed={filter === f.key}
                onClick={() => choose(f.key)}
                className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset ${
                  filter === f.key
                    ? 'bg-brand-600 text-white ring-brand-600'
                    : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
                }`}
              >
                {f.label} ({f.count.toLocaleString()})
              </button>
            ))}
          </div>
          {page.isError ? (
            <p role="alert" className="mt-4 text-sm text-red-700">
              Failed to load batches.
            </p>
          ) : !data ? (
            <p className="mt-4 text-sm text-slate-500">Loading…</p>
          ) : data.batches.length === 0 ? (
            <p className="mt-4 text-sm text-slate-500">No batches here.</p>
          ) : (
            <ul aria-label="Batches" className="mt-3 divide-y divide-slate-100 text-sm">
              {data.batches.map((b) => (
                <BatchRow key={b.batchId} batch={b} fileId={fileId} />
              ))}
            </ul>
          )}
          {total > limit && (
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
              <span>
                {(offset + 1).toLocaleString()}–{Math.min(offset + limit, total).toLocaleString()} of{' '}
                {total.toLocaleString()}
              </span>
              <span className="flex gap-2">
                <Button
                  variant="secondary"
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - limit))}
                >
                  Previous
                </Button>
                <Button
                  variant="secondary"
                  disabled={offset + limit >= total}
                  onClick={() => setOffset(offset + limit)}
                >
                  Next
                </Button>
              </span>
            </div>
          )}
        </div>
      </details>
    </div>
  );
}

function BatchRow({ batch, fileId }: { batch: BatchSummary; fileId: string }) {
  // Failed rows are customer data: a viewer downloads none (decision 0103).
  const canDownload = useCan('member');
  const [busy, setBusy] = useState(false);
  const s = STATUS[batch.status];
  const onDownload = async () => {
    setBusy(true);
    try {
      await summaryApi.downloadFailed(fileId, batch.batchId, batch.index);
    } catch {
      toast.error('Download failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-2">
      <span className="w-20 font-medium text-slate-800">Batch {batch.index + 1}</span>
      {/* Phone: number, status and download on one line, the rows below. */}
      <span className="order-last min-w-0 basis-full text-slate-600 sm:order-none sm:flex-1 sm:basis-auto">
        {batchRows(batch)} · {batch.count} {batch.count === 1 ? 'event' : 'events'}
        {batch.explanation && <span className="text-red-800"> · {batch.explanation.title}</span>}
      </span>
      <span className={`ml-auto rounded-full px-2 py-0.5 text-xs font-semibold sm:ml-0 ${s.tone}`}>
        {s.label}
      </span>
      {batch.status === 'failed' && canDownload && (
        <Button
          variant="ghost"
          className="text-brand-700"
          onClick={onDownload}
          disabled={busy}
          aria-label={`Download failed rows of batch ${batch.index + 1}`}
        >
          {busy ? 'Downloading…' : 'Download'}
        </Button>
      )}
    </li>
  );
}
