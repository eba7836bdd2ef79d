import type { DeliverySummary, RunStatus } from './api-types.ts';
import { EXIT, type ExitCode } from './errors.ts';
import { count } from './progress.ts';

/** What a send came to, as `send --json` and `status --json` print it. */
export interface SendOutcome {
  uploadId: string;
  fileName: string;
  rows: number;
  /** 'not_sent': the file was never sent; 'running': the send goes on (no --wait, or status while running). */
  status: RunStatus | 'not_sent';
  sent: number;
  failed: number;
  /** Rows with errors left out (--skip-errors). */
  skippedErrorRows: number;
  /** Refund rows left out (--refunds skip). */
  skippedRefundRows: number;
  /** Events the pixel already had: left out on purpose, not a failure. */
  alreadyDelivered: number;
  testEventCode: string | null;
  failureReasons: { events: number; reason: string; fix: string }[];
}

export function outcomeOf(
  file: { id: string; fileName: string; rowCount: number },
  summary: DeliverySummary | null,
  skipped: { errorRows: number; refundRows: number },
): SendOutcome {
  return {
    uploadId: file.id,
    fileName: file.fileName,
    rows: file.rowCount,
    status: summary?.status ?? 'not_sent',
    sent: summary?.progress.eventsSent ?? 0,
    failed: summary?.progress.eventsFailed ?? 0,
    skippedErrorRows: Math.max(skipped.errorRows, summary?.errorRowsSkipped ?? 0),
    skippedRefundRows: skipped.refundRows,
    alreadyDelivered: summary?.progress.eventsSkipped ?? 0,
    testEventCode: summary?.testEventCode ?? null,
    failureReasons: (summary?.failureGroups ?? []).map((g) => ({
      events: g.events,
      reason: g.explanation.title,
      fix: g.explanation.fix,
    })),
  };
}

/** 0 all sent; 2 sent with failures or rows left out; 1 stopped (nothing more will go). A send still running is 0. */
export function exitCodeOf(o: SendOutcome): ExitCode {
  if (o.status === 'stopped') return EXIT.failed;
  if (
    o.failed > 0 ||
    o.skippedErrorRows > 0 ||
    o.skippedRefundRows > 0 ||
    o.status === 'completed_with_errors'
  )
    return EXIT.partly;
  return EXIT.sent;
}

const STATUS_TEXT: Record<SendOutcome['status'], string> = {
  not_sent: 'Not sent yet',
  running: 'Sending',
  completed: 'All sent',
  completed_with_errors: 'Sent with failures',
  stopped: 'Stopped: Meta refused the send',
};

/** The summary a person reads at the end. */
export function outcomeLines(o: SendOutcome): string[] {
  const lines = [
    `${STATUS_TEXT[o.status]}: ${o.fileName} (upload ${o.uploadId}, ${count(o.rows)} rows)`,
    `  Sent: ${count(o.sent)}   Failed: ${count(o.failed)}`,
  ];
  if (o.alreadyDelivered)
    lines.push(`  Already delivered to this pixel, not sent again: ${count(o.alreadyDelivered)}`);
  if (o.skippedErrorRows) lines.push(`  Rows with errors left out: ${count(o.skippedErrorRows)}`);
  if (o.skippedRefundRows) lines.push(`  Refund rows left out: ${count(o.skippedRefundRows)}`);
  if (o.testEventCode)
    lines.push(`  Test events (code ${o.testEventCode}): they show in Events Manager's Test Events.`);
  for (const r of o.failureReasons) lines.push(`  ${count(r.events)} failed: ${r.reason}. ${r.fix}`);
  if (o.failed) lines.push(`  Failed rows: backsignal failed-rows ${o.uploadId} -o failed.csv`);
  return lines;
}
