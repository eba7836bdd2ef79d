import { useState } from 'react';
import { toast } from 'react-toastify';
import type { DeliverySummary, FailureGroup } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { summaryApi } from './summary-api.ts';
import { useCan } from '../../lib/workspace.tsx';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** 'Rows 5, 30, 31 and 3 more': the first few rows of a reason, so the user can look them up in their file. */
export function sampleRowsText(g: Pick<FailureGroup, 'events' | 'sampleRows'>): string {
  const listed = g.sampleRows.join(', ');
  const more = g.events - g.sampleRows.length;
  return `${g.sampleRows.length === 1 ? 'Row' : 'Rows'} ${listed}${more > 0 ? ` and ${more.toLocaleString()} more` : ''}`;
}

/**
 * Why events failed, one card per reason (however many batches it touched), and one download of every failed
 * row with its reason: the file the user fixes and uploads again.
 */
export function FailureGroups({
  summary,
  fileId,
  fileName,
}: {
  summary: DeliverySummary;
  fileId: string;
  fileName: string;
}) {
  // Failed rows are customer data: a viewer downloads none (decision 0103).
  const canDownload = useCan('member');
  const [busy, setBusy] = useState(false);
  const groups = summary.failureGroups;
  if (!groups.length) return null;
  const onDownload = async () => {
    setBusy(true);
    try {
      await summaryApi.downloadAllFailed(fileId, fileName);
    } catch {
      toast.error('Download failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-slate-900">Why events failed</h2>
          <p className="mt-1 text-sm text-slate-600">
            {plural(summary.progress.eventsFailed, 'event', 'events')} failed for{' '}
            {plural(groups.length, 'reason', 'reasons')}. Row numbers count the header as row 1.
          </p>
        </div>
        {canDownload && (
          <Button variant="secondary" onClick={onDownload} disabled={busy}>
            {busy ? 'Downloading…' : 'Download all failed rows'}
          </Button>
        )}
      </div>
      <ul className="mt-4 space-y-3">
        {groups.map((g) => (
          <li
            key={g.key}
            className="rounded-xl bg-red-50 p-4 text-sm ring-1 ring-inset ring-red-200"
            aria-label={g.explanation.title}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <h3 className="font-semibold text-red-900">{g.explanation.title}</h3>
              <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                {plural(g.events, 'event', 'events')}
              </span>
            </div>
            <p className="mt-1 text-red-800">{g.explanation.explanation}</p>
            <p className="mt-1 text-red-800">
              <span className="font-medium">How to fix it:</span> {g.explanation.fix}
            </p>
            <p className="mt-1 text-red-800">
              <span className="font-medium">Examples:</span> {sampleRowsText(g)}
            </p>
            <p className="mt-2 rounded-lg bg-white/70 p-2 text-xs text-slate-700">
              <span className="font-medium">Meta says:</span>{' '}
              {g.explanation.metaTitle ? `${g.explanation.metaTitle}: ` : ''}
              {g.explanation.metaMessage}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
