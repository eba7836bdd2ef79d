import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import type { DeliverySummary } from '@backsignal/contracts';
import { progressPercent, timeLeftText } from './progress.ts';

/**
 * Events sent, failed, skipped and remaining; the bar fills as outcomes are committed on the server. Every
 * counter only moves one way: the server counts a batch being split as still open, never as failed.
 */
export function Progress({ summary }: { summary: DeliverySummary }) {
  const p = summary.progress;
  const pct = progressPercent(summary);
  const running = summary.status === 'running';
  // A run that stopped before its file was read to the end never counted what it left: said, not guessed.
  const uncounted = p.eventsRemaining === null && !running;
  const remaining = p.eventsRemaining === null ? '…' : p.eventsRemaining.toLocaleString();
  const left = running ? timeLeftText(p.secondsLeft) : null;
  return (
    <div className="mt-5">
      <ProgressBar label="Events processed" percent={pct} warn={p.eventsFailed > 0} />
      {left && <p className="mt-2 text-right text-xs text-slate-500">{left}</p>}
      <dl className="mt-4 grid grid-cols-2 gap-2 text-center text-sm sm:grid-cols-4 sm:gap-3">
        <Stat
          label="Sent"
          events={p.eventsSent.toLocaleString()}
          note={batches(p.batchesSent)}
          tone="text-green-700"
        />
        <Stat
          label="Failed"
          events={p.eventsFailed.toLocaleString()}
          note={batches(p.batchesFailed)}
          tone={p.eventsFailed ? 'text-red-700' : 'text-slate-900'}
        />
        <Stat
          label="Skipped"
          events={p.eventsSkipped === null ? '…' : p.eventsSkipped.toLocaleString()}
          note={p.eventsSkipped === null ? 'counting…' : 'already delivered'}
          tone="text-slate-900"
        />
        <Stat
          label="Remaining"
          events={uncounted ? null : remaining}
          note={running ? (p.batchesRemaining ? 'sending…' : 'planning batches…') : undefined}
          tone="text-slate-900"
        />
      </dl>
    </div>
  );
}

const batches = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'batch' : 'batches'}`;

function Stat({
  label,
  events,
  note,
  tone,
}: {
  label: string;
  /** null: not counted. */
  events: string | null;
  note?: string;
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
      {note !== undefined && <dd className="text-xs text-slate-500">{note}</dd>}
    </div>
  );
}
