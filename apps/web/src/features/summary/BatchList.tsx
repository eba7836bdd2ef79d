import { useState } from 'react';
import { toast } from 'react-toastify';
import type { BatchSummary, DeliverySummary } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { summaryApi } from './summary-api.ts';

/** 'Rows 102–151 except 120': a range whose bad row went out in a batch of its own says so. */
export function batchRows(b: BatchSummary): string {
  const range = b.firstRow === b.lastRow ? `Row ${b.firstRow}` : `Rows ${b.firstRow}–${b.lastRow}`;
  if (b.rowsNotInBatchCount === 0) return range;
  const listed = b.rowsNotInBatch.join(', ');
  return b.rowsNotInBatchCount <= b.rowsNotInBatch.length
    ? `${range} except ${listed}`
    : `${range} except ${b.rowsNotInBatchCount} rows (${listed}, …)`;
}

/**
 * Batch details (spec §3, §9): failed batches first, each with our explanation, the fix and Meta's words. The
 * server lists batches a page at a time (failed first); 'Show more' fetches the next page.
 */
export function BatchList({ summary, fileId }: { summary: DeliverySummary; fileId: string }) {
  const [more, setMore] = useState<{ batches: BatchSummary[]; next: number | null } | null>(null);
  const [loading, setLoading] = useState(false);
  const all = [...summary.batches, ...(more?.batches ?? [])];
  const next = more ? more.next : summary.nextBatchOffset;
  const failed = all.filter((b) => b.status === 'failed');
  const sent = all.filter((b) => b.status === 'sent');
  const p = summary.progress;
  const onMore = async () => {
    if (next === null) return;
    setLoading(true);
    try {
      const page = await summaryApi.summary(fileId, next);
      setMore((m) => ({ batches: [...(m?.batches ?? []), ...page.batches], next: page.nextBatchOffset }));
    } catch {
      toast.error('Failed to load more batches.');
    } finally {
      setLoading(false);
    }
  };
  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Batch details</h2>
      <p className="mt-1 text-sm text-slate-600">
        {summary.totalBatches.toLocaleString()} {summary.totalBatches === 1 ? 'batch' : 'batches'}:{' '}
        {p.batchesSent.toLocaleString()} sent, {p.batchesFailed.toLocaleString()} failed
        {p.batchesRemaining ? `, ${p.batchesRemaining.toLocaleString()} not sent` : ''}. Row numbers count the
        header as row 1.
      </p>
      {failed.length > 0 && (
        <ul className="mt-4 space-y-3">
          {failed.map((b) => (
            <FailedBatch key={b.batchId} batch={b} fileId={fileId} />
          ))}
        </ul>
      )}
      {sent.length > 0 && (
        <details className="mt-4 rounded-xl ring-1 ring-inset ring-slate-200">
          <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-slate-800">
            Sent batches ({p.batchesSent.toLocaleString()})
          </summary>
          {/* A long list scrolls: focusable and named, so keyboard users can scroll it too. */}
          <ul
            tabIndex={0}
            aria-label="Sent batches"
            className="max-h-72 divide-y divide-slate-100 overflow-y-auto border-t border-slate-200 text-sm"
          >
            {sent.map((b) => (
              <li key={b.batchId} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span className="font-medium text-slate-800">Batch {b.index + 1}</span>
                <span className="text-slate-600">{batchRows(b)}</span>
                <span className="text-slate-600">{b.count} events</span>
                <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
                  Sent
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {next !== null && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
          <span>
            Showing {all.length.toLocaleString()} of {summary.totalBatches.toLocaleString()} batches.
          </span>
          <Button variant="secondary" onClick={onMore} disabled={loading}>
            {loading ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
    </Card>
  );
}

function FailedBatch({ batch, fileId }: { batch: BatchSummary; fileId: string }) {
  const [busy, setBusy] = useState(false);
  const e = batch.explanation;
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
    <li className="rounded-xl bg-red-50 p-4 text-sm ring-1 ring-inset ring-red-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-red-900">
          Batch {batch.index + 1} · {batchRows(batch)} · {batch.count}{' '}
          {batch.count === 1 ? 'event' : 'events'}
        </p>
        <Button
          variant="secondary"
          onClick={onDownload}
          disabled={busy}
          aria-label={`Download failed rows of batch ${batch.index + 1}`}
        >
          {busy ? 'Downloading…' : 'Download failed rows'}
        </Button>
      </div>
      {e && (
        <>
          <p className="mt-2 font-medium text-red-900">{e.title}</p>
          <p className="mt-1 text-red-800">{e.explanation}</p>
          <p className="mt-1 text-red-800">
            <span className="font-medium">How to fix it:</span> {e.fix}
          </p>
          <p className="mt-2 rounded-lg bg-white/70 p-2 text-xs text-slate-700">
            <span className="font-medium">Meta says:</span> {e.metaTitle ? `${e.metaTitle}: ` : ''}
            {e.metaMessage}
          </p>
        </>
      )}
    </li>
  );
}
