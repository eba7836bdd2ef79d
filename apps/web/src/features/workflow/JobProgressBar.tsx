import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import type { JobProgress } from './upload-job.ts';

const VERB = { validate: 'Validating', prepare: 'Preparing' } as const;

/** "Validating… 412,000 of 1,000,000 rows": what the bar says, by stage. */
export function jobProgressText(p: JobProgress): string {
  const verb = VERB[p.kind];
  if (p.stage === 'queued') return `${verb}… waiting for a free worker`;
  if (p.stage === 'finishing' || p.stage === 'finished') return `${verb}… saving the results`;
  const done = Math.min(p.rowsDone, p.rowsTotal);
  return `${verb}… ${done.toLocaleString('en-US')} of ${p.rowsTotal.toLocaleString('en-US')} rows`;
}

export function jobPercent(p: JobProgress): number {
  if (p.stage === 'finishing' || p.stage === 'finished') return 100;
  return p.rowsTotal > 0 ? Math.min(100, Math.floor((p.rowsDone / p.rowsTotal) * 100)) : 0;
}

/**
 * A background validation or prepare as it runs on the server (docs/decisions/0091). Before the first answer
 * (`progress` null) the bar is empty and says only the verb.
 */
export function JobProgressBar({
  kind,
  progress,
}: {
  kind: JobProgress['kind'];
  progress: JobProgress | null;
}) {
  const text = progress ? jobProgressText(progress) : `${VERB[kind]}…`;
  const pct = progress ? jobPercent(progress) : 0;
  return (
    <div className="py-6">
      <p className="text-sm font-medium text-slate-700" aria-hidden>
        {text}
      </p>
      <ProgressBar
        className="mt-3"
        label={kind === 'validate' ? 'Validation progress' : 'Preparation progress'}
        percent={pct}
        valueText={text}
      />
      <p className="mt-3 text-xs text-slate-500">
        Big files take a while. You can leave this page: the work goes on, and coming back shows where it is.
      </p>
    </div>
  );
}
