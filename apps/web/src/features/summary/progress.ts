import type { DeliverySummary } from '@backsignal/contracts';

/**
 * How full the bar is. The total is the prepared count recorded when the run was created (corrected once the
 * file is planned); without it (a run that stopped before its file was read to the end) the bar stays empty
 * rather than claim 100% of what is done so far, and it never reads 100% while the run is still sending.
 */
export function progressPercent(summary: Pick<DeliverySummary, 'status' | 'progress'>): number {
  const p = summary.progress;
  const running = summary.status === 'running';
  const done = p.eventsSent + p.eventsFailed;
  if (summary.status === 'completed' || summary.status === 'completed_with_errors') return 100;
  if (p.totalEvents === null || p.totalEvents <= 0) return 0;
  return Math.min(running ? 99 : 100, Math.floor((done / p.totalEvents) * 100));
}

/** 'About 3 minutes left': rounded, since the pace of a send changes (rate limits, retries). */
export function timeLeftText(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 60) return 'Less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left`;
  const hours = Math.round(minutes / 6) / 10;
  return `About ${hours} ${hours === 1 ? 'hour' : 'hours'} left`;
}
