import type { DeliverySummary } from '@backsignal/contracts';
import { progressPercent } from './progress.ts';

/** Batches and events sent, failed and remaining; the bar fills as outcomes are committed on the server. */
export function Progress({ summary }: { summary: DeliverySummary }) {
  const p = summary.progress;
  const pct = progressPercent(summary);
  // A run that stopped before its file was read to the end never counted what it left: said, not guessed.
  const uncounted = p.eventsRemaining === null && summary.status !== 'running';
  const remaining = p.eventsRemaining === null ? '…' : p.eventsRemaining.toLocaleString();
  // Before the batches are planned, events remain in no batch yet: '27 events, 0 batches' would not add up.
  const batchesRemaining =
    p.batchesRemaining === 0 && (p.eventsRemaining ?? 1) > 0 ? null : p.batchesRemaining;
  return (
    <div className="mt-5">
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Events processed"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div
          className={`h-full rounded-full ${p.eventsFailed ? 'bg-amber-500' : 'bg-brand-600'} transition-all`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-2 text-center text-sm sm:gap-3">
        <Stat
          label="Sent"
          events={p.eventsSent.toLocaleString()}
          batches={p.batchesSent}
          tone="text-green-700"
        />
        <Stat
          label="Failed"
          events={p.eventsFailed.toLocaleString()}
          batches={p.batchesFailed}
          tone={p.eventsFailed ? 'text-red-700' : 'text-slate-900'}
        />
        <Stat
          label="Remaining"
          events={uncounted ? null : remaining}
          batches={uncounted ? undefined : batchesRemaining}
          tone="text-slate-900"
        />
      </dl>
    </div>
  );
}

function Stat({
  label,
  events,
  batches,
  tone,
}: {
  label: string;
  /** null: not counted. */
  events: string | null;
  /** null: not planned yet; undefined: no batch line. */
  batches?: number | null;
  tone: string;
}) {
  return (
    <div className="rounded-xl bg-slate-50 px-2 py-3">
      <dt className="text-[11px] font-medium uppercase text-slate-500 sm:text-xs sm:tracking-wide">
        {label}
      </dt>
      <dd className={`mt-1 text-lg font-semibold ${tone}`}>
        {events === null ? (
          'not counted'
        ) : (
          <>
            {events}{' '}
            <span className="block text-xs font-normal text-slate-500 sm:inline">
              {events === '1' ? 'event' : 'events'}
            </span>
          </>
        )}
      </dd>
      {batches !== undefined && (
        <dd className="text-xs text-slate-500">
          {batches === null ? 'planning batches…' : `${batches} ${batches === 1 ? 'batch' : 'batches'}`}
        </dd>
      )}
    </div>
  );
}
