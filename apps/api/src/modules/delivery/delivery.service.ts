import {
  SUMMARY_PAGE,
  type BatchesPage,
  type BatchesQuery,
  type BatchSummary,
  type DeliverySummary,
  type FailureGroup,
  type SendRequest,
} from '@backsignal/contracts';
import { explainMetaError, explainStop, type Verdict } from '@backsignal/core';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/db.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { filesRepo, type UploadRow } from '../files/files.repo.ts';
import { skipsErrorRows } from '../files/files.service.ts';
import { refundChoice } from '../files/pipeline.ts';
import { getAccountWithToken } from '../pixels/pixels.service.ts';
import { takeQuota } from '../usage/quota.service.ts';
import {
  deliveryRepo,
  ledgerKey,
  readTime,
  type BatchRow,
  type FailureGroupRow,
  type RunRow,
  type RunTotals,
  type StopReason,
} from './delivery.repo.ts';
import { preparedEvents } from './delivery.source.ts';

export const SEND_RUN_JOB = 'send-run';
export const NOT_READY = 'Cannot submit: data not in the right state';
export const NO_ACCOUNT = 'Please select or save an account first';
export const NOT_FAILED = 'Only the rows of a failed batch can be downloaded.';
export const NOT_RETRYABLE =
  'Only a send that Meta stopped (token, permission or pixel refused) can be retried, once it has stopped.';
export const RECONNECT_FIRST =
  "Meta refused this pixel account's access token. Replace the token first, then retry.";
export const ACCOUNT_GONE =
  'The pixel account this file was sent with was deleted, so the send cannot be retried. Upload the file again to send it with another account.';

/** Stops the user can fix outside the file (a new token, a permission, the pixel id), after which a retry works. */
const RETRYABLE: readonly StopReason[] = ['token', 'permission', 'pixel'];
const retryable = (run: RunRow) =>
  run.status === 'stopped' && !!run.stop_reason && RETRYABLE.includes(run.stop_reason);

async function ownUpload(db: Db, workspaceId: string, id: string): Promise<UploadRow> {
  const upload = await filesRepo.findInWorkspace(db, workspaceId, id);
  if (!upload) throw notFound('File not found.');
  return upload;
}

/**
 * Records a run and hands it to the queue; the send itself happens in the worker so the user may close the
 * window. The prepared → submitted move is the guard against a double click starting two runs.
 */
export async function startSend(
  deps: { db: Db; config: Config; queue?: PgBoss; now: () => Date },
  workspaceId: string,
  uploadId: string,
  body: SendRequest,
  startedBy: string | null = null,
): Promise<RunRow> {
  const { db } = deps;
  const upload = await ownUpload(db, workspaceId, uploadId);
  if (upload.status !== 'prepared') throw new AppError('INVALID_STATE', NOT_READY);
  const account = await getAccountWithToken(db, deps.config, workspaceId, body.selectedAccountId);
  if (!account) throw new AppError('VALIDATION_FAILED', NO_ACCOUNT, { selectedAccountId: NO_ACCOUNT });
  if (!deps.queue) throw new AppError('INTERNAL', 'Submission failed');
  const run = await db.transaction(async (tx) => {
    await takeQuota(tx, {
      quotas: deps.config.quotas,
      workspaceId,
      action: 'send',
      amount: upload.rowCount,
      now: deps.now(),
    });
    if (!(await filesRepo.transition(tx, uploadId, ['prepared'], 'submitted')))
      throw new AppError('INVALID_STATE', NOT_READY);
    return deliveryRepo.createRun(tx, {
      startedBy,
      workspaceId,
      uploadId,
      accountId: account.id,
      pixelId: account.pixelId,
      accountName: account.name,
      testEventCode: body.testEventCode?.trim() || null,
      skipDelivered: body.skipDelivered ?? true,
      // A prepared file has no row with errors but those the user chose to skip, so this is at most the events
      // to send: rows repeating an earlier row's event and events already delivered come off once it is planned.
      expectedEvents:
        upload.rowCount -
        (skipsErrorRows(upload) ? upload.errorRows : 0) -
        (refundChoice(upload) === 'send' ? 0 : upload.refundRows),
    });
  });
  await deps.queue.send(SEND_RUN_JOB, { runId: run.id }, { singletonKey: run.id });
  return run;
}

/**
 * Retries the file's latest send after it stopped on a refused token, permission or pixel: a new run on the same
 * upload, linked to the stopped one, that reads the file as that run did and leaves out every event the pixel's
 * ledger has, so only the events not delivered go, with their own event_ids (docs/decisions/0099). The stopped
 * run is locked while its retry is recorded, and a run has at most one retry: two clicks at once start one run,
 * and the second answers it.
 */
export async function retrySend(
  deps: { db: Db; config: Config; queue?: PgBoss; now: () => Date },
  workspaceId: string,
  uploadId: string,
  startedBy: string | null = null,
): Promise<RunRow> {
  const { db } = deps;
  const upload = await ownUpload(db, workspaceId, uploadId);
  const last = await deliveryRepo.latestRunForUpload(db, workspaceId, upload.id);
  // A click that comes after its twin's retry was recorded finds that retry, still going.
  if (last?.retry_of && last.status === 'running') return last;
  if (!last || upload.status !== 'submitted' || !retryable(last))
    throw new AppError('INVALID_STATE', NOT_RETRYABLE);
  const account = last.pixel_account_id
    ? await getAccountWithToken(db, deps.config, workspaceId, last.pixel_account_id)
    : null;
  if (!account) throw new AppError('INVALID_STATE', ACCOUNT_GONE);
  // The engine marks the account when Meta refuses its token; saving a new one clears the mark.
  if (account.status === 'reconnect_needed') throw new AppError('INVALID_STATE', RECONNECT_FIRST);
  if (!deps.queue) throw new AppError('INTERNAL', 'Submission failed');
  const totals = await deliveryRepo.totals(db, last.id);
  const planned = last.total_events ?? upload.rowCount;
  const { run, started } = await db.transaction(async (tx) => {
    await deliveryRepo.lockRun(tx, last.id);
    const earlier = await deliveryRepo.retryOf(tx, last.id);
    if (earlier) return { run: earlier, started: false };
    // The quota and its limits apply as to any send, for the events that may still go.
    await takeQuota(tx, {
      quotas: deps.config.quotas,
      workspaceId,
      action: 'send',
      amount: Math.max(0, planned - totals.events_sent),
      now: deps.now(),
    });
    const created = await deliveryRepo.createRun(tx, {
      startedBy,
      workspaceId,
      uploadId,
      accountId: account.id,
      pixelId: account.pixelId,
      accountName: account.name,
      testEventCode: last.test_event_code,
      // Only what the pixel lacks: the ledger, per pixel, is what Meta confirmed.
      skipDelivered: true,
      expectedEvents: Math.max(0, planned - totals.events_sent),
      retryOf: last.id,
      readAt: readTime(last),
    });
    return { run: created, started: true };
  });
  if (started) await deps.queue.send(SEND_RUN_JOB, { runId: run.id }, { singletonKey: run.id });
  return run;
}

/** Rows inside a batch's range that it does not carry: a bad row isolated from it, or rows skipped before. */
function rowsNotIn(b: BatchRow, listed = 3): { rows: number[]; count: number } {
  const carried = new Set(b.row_numbers);
  const rows: number[] = [];
  for (let r = b.first_row; r <= b.last_row && rows.length < listed; r++) if (!carried.has(r)) rows.push(r);
  return { rows, count: b.last_row - b.first_row + 1 - carried.size };
}

/** A held first half is still being worked out (see deliveryRepo.totals): shown as sending, not failed. */
function presentBatch(b: BatchRow & { held?: boolean }, index: number): BatchSummary {
  const failed = b.status === 'failed' && !b.held;
  const gaps = rowsNotIn(b);
  return {
    batchId: b.id,
    index,
    status: b.held ? 'sending' : b.status === 'split' ? 'sent' : b.status,
    count: b.event_count,
    firstRow: b.first_row,
    lastRow: b.last_row,
    rowsNotInBatch: gaps.rows,
    rowsNotInBatchCount: gaps.count,
    attempts: b.attempts,
    fbtraceId: b.fbtrace_id,
    errorMessage: failed ? b.error_raw : null,
    explanation: failed ? explainMetaError(b.error_raw, (b.verdict as Verdict | null) ?? null) : null,
  };
}

function presentGroup(g: FailureGroupRow): FailureGroup {
  return {
    key: [g.verdict, g.error_code, g.error_subcode, g.error_title, g.error_message].join('|'),
    explanation: explainMetaError(g.error_raw, (g.verdict as Verdict | null) ?? null),
    events: g.events,
    batches: g.batches,
    sampleRows: g.sample_rows,
  };
}

/**
 * Events already delivered that a run leaves out. Known before the file is read when nothing can be skipped:
 * the user chose to send anyway, or this pixel never received a live event of theirs before the run.
 */
async function skippedSoFar(db: Db, run: RunRow): Promise<number | null> {
  if (run.planned || run.skipped_counted) return run.skipped_events;
  if (!run.skip_delivered) return 0;
  let any = earlierLiveDelivery.get(run.id);
  if (any === undefined) {
    any = await deliveryRepo.anyLiveDelivery(db, run.pixel_id, run.created_at);
    if (earlierLiveDelivery.size >= 1000) earlierLiveDelivery.clear();
    earlierLiveDelivery.set(run.id, any);
  }
  return any ? null : 0;
}

/**
 * Per run, whether its pixel had a live delivery before the run was created. The answer cannot change (ledger
 * rows are dated when written, after that time), and the lookup scans the pixel's ledger: asked once per run,
 * not on every poll of /summary while the run plans (decision 0080).
 */
const earlierLiveDelivery = new Map<string, boolean>();

/** Time left at the pace so far (events settled since the run started); null before anything settled. */
function secondsLeft(run: RunRow, t: RunTotals, remaining: number | null, now: Date): number | null {
  const done = t.events_sent + t.events_failed;
  if (run.status !== 'running' || !run.started_at || remaining === null || done === 0) return null;
  const elapsed = (now.getTime() - new Date(run.started_at).getTime()) / 1000;
  if (elapsed <= 0) return null;
  const byPace = (elapsed / done) * remaining;
  // A rate-limited run sends nothing until its hold is over.
  const held = run.throttled_until ? (new Date(run.throttled_until).getTime() - now.getTime()) / 1000 : 0;
  return Math.max(0, Math.ceil(Math.max(byPace, held)));
}

/**
 * Polled every 1.5 s while sending, so it stays small: totals plus failed batches only. A finished run lists
 * every batch, failed first, a page at a time.
 */
export async function summary(
  db: Db,
  workspaceId: string,
  uploadId: string,
  batchOffset = 0,
  now = new Date(),
): Promise<DeliverySummary> {
  const upload = await ownUpload(db, workspaceId, uploadId);
  const run = await deliveryRepo.latestRunForUpload(db, workspaceId, upload.id);
  if (!run) throw new AppError('INVALID_STATE', NOT_READY);
  const onlyFailed = run.status === 'running';
  const [totals, page, groups, skipped, sentBefore] = await Promise.all([
    deliveryRepo.totals(db, run.id),
    deliveryRepo.leavesPage(db, run.id, { onlyFailed, offset: batchOffset, limit: SUMMARY_PAGE }),
    deliveryRepo.failureGroups(db, run.id),
    skippedSoFar(db, run),
    run.retry_of ? deliveryRepo.sentBefore(db, run) : 0,
  ]);
  const listed = onlyFailed
    ? totals.batches_failed
    : totals.batches_sent + totals.batches_failed + totals.batches_open;
  const next = batchOffset + page.length;
  // A run that ended before any worker read its file to the end never learnt how many events it was to send or
  // skip: the count it started with still holds repeated rows and events already delivered, so it is not
  // reported as the total, and nothing is said to remain or to have been skipped.
  const counted = run.planned || run.status === 'running';
  const remaining =
    !counted || run.total_events === null
      ? null
      : Math.max(0, run.total_events - totals.events_sent - totals.events_failed);
  return {
    runId: run.id,
    status: run.status,
    totalBatches: totals.batches_sent + totals.batches_failed + totals.batches_open,
    totalSent: totals.events_sent,
    totalFailed: totals.events_failed,
    pixelAccount: { name: run.account_name, pixelId: run.pixel_id, accountId: run.pixel_account_id },
    testEventCode: run.test_event_code,
    batches: page.map((b) => presentBatch(b, b.position)),
    batchesListed: onlyFailed ? 'failed' : 'all',
    nextBatchOffset: page.length > 0 && next < listed ? next : null,
    progress: {
      totalEvents: counted ? run.total_events : null,
      batchesSent: totals.batches_sent,
      batchesFailed: totals.batches_failed,
      batchesRemaining: totals.batches_open,
      eventsSent: totals.events_sent,
      eventsFailed: totals.events_failed,
      // Unknown without a total (see counted).
      eventsRemaining: remaining,
      eventsSkipped: skipped,
      secondsLeft: secondsLeft(run, totals, remaining, now),
    },
    failureGroups: groups.map(presentGroup),
    errorRowsSkipped: skipsErrorRows(upload) ? upload.errorRows : 0,
    refundRowsSkipped: refundChoice(upload) === 'skip' ? upload.refundRows : 0,
    stopReason: run.stop_reason,
    stopExplanation: run.stop_reason ? explainStop(run.stop_reason, run.stop_error) : null,
    startedAt: run.started_at?.toISOString() ?? null,
    finishedAt: run.finished_at?.toISOString() ?? null,
    retry: {
      allowed: retryable(run) && !!run.pixel_account_id && upload.status === 'submitted',
      isRetry: !!run.retry_of,
      sentBefore,
    },
  };
}

/** The latest run's batches a page at a time, filtered by outcome (the summary's batch list). */
export async function batches(
  db: Db,
  workspaceId: string,
  uploadId: string,
  q: BatchesQuery,
): Promise<BatchesPage> {
  const upload = await ownUpload(db, workspaceId, uploadId);
  const run = await deliveryRepo.latestRunForUpload(db, workspaceId, upload.id);
  if (!run) throw new AppError('INVALID_STATE', NOT_READY);
  const page = await deliveryRepo.batchesPage(db, run.id, q);
  return {
    batches: page.rows.map((b) => presentBatch(b, b.position)),
    total: page.total,
    offset: q.offset,
    limit: q.limit,
  };
}

/** How many of the file's events the account's pixel already received, live and as test events (/submit). */
export async function deliveredBefore(
  db: Db,
  config: Config,
  workspaceId: string,
  uploadId: string,
  accountId: string,
  now: Date,
): Promise<{ live: number; test: number }> {
  const upload = await ownUpload(db, workspaceId, uploadId);
  const account = await getAccountWithToken(db, config, workspaceId, accountId);
  if (!account) throw notFound('Pixel account not found.');
  const count = { live: 0, test: 0 };
  let chunk: { name: string; id: string }[] = [];
  const flush = async () => {
    const hits = await deliveryRepo.deliveredBefore(
      db,
      account.pixelId,
      chunk.map((c) => c.id),
      null,
    );
    count.live += chunk.filter((c) => hits.live.has(ledgerKey(c.name, c.id))).length;
    count.test += chunk.filter((c) => hits.test.has(ledgerKey(c.name, c.id))).length;
    chunk = [];
  };
  for await (const item of preparedEvents(db, upload, now)) {
    chunk.push({ name: item.event.event_name, id: item.event.event_id });
    if (chunk.length >= 1000) await flush();
  }
  if (chunk.length) await flush();
  return count;
}

/** The pixel account the send step preselects for this file, or null (see deliveryRepo.lastGoodAccount). */
export async function suggestedAccount(
  db: Db,
  workspaceId: string,
  uploadId: string,
): Promise<string | null> {
  const upload = await ownUpload(db, workspaceId, uploadId);
  return deliveryRepo.lastGoodAccount(db, workspaceId, upload.id);
}

/** A batch's original CSV rows plus why it failed, for the failed-rows download. */
export async function batchRows(db: Db, workspaceId: string, uploadId: string, batchId: string) {
  const upload = await ownUpload(db, workspaceId, uploadId);
  const batch = await deliveryRepo.findBatchInWorkspace(db, workspaceId, upload.id, batchId);
  if (!batch || batch.status === 'split') throw notFound('Batch not found.');
  // Only failed rows are offered: the download exists to fix and resend them, never to re-export sent data.
  if (batch.status !== 'failed') throw new AppError('INVALID_STATE', NOT_FAILED);
  const run = (await deliveryRepo.getRun(db, batch.run_id))!;
  const index = await deliveryRepo.leafPosition(db, batch);
  const e = explainMetaError(batch.error_raw, (batch.verdict as Verdict | null) ?? null);
  const reason = [e.title, e.metaTitle, e.metaMessage].filter(Boolean).join(': ');
  const wanted = new Set(batch.row_numbers);
  async function* rows(): AsyncGenerator<string[]> {
    for await (const item of preparedEvents(db, upload, readTime(run), true)) {
      if (wanted.has(item.rowNumber)) yield [...item.values!, reason];
    }
  }
  // Named by the number the summary shows ('Batch 3'), not the zero-based index.
  return {
    fileName: `failed-rows-batch-${index + 1}.csv`,
    headers: [...upload.headers, 'reason'],
    rows: rows(),
  };
}

/** Each row of the run Meta refused, with the reason in plain words and Meta's own. */
export async function failedRowReasons(db: Db, runId: string): Promise<Map<number, string>> {
  const reasons = new Map<number, string>();
  for (const b of await deliveryRepo.failedLeaves(db, runId)) {
    const e = explainMetaError(b.error_raw, (b.verdict as Verdict | null) ?? null);
    const reason = [e.title, e.metaTitle, e.metaMessage].filter(Boolean).join(': ');
    for (const r of b.row_numbers) reasons.set(r, reason);
  }
  return reasons;
}

/**
 * Every failed row of the latest run, in file order, with its reason: one file to fix and upload again, however
 * many batches the failures were spread over.
 */
export async function allFailedRows(db: Db, workspaceId: string, uploadId: string) {
  const upload = await ownUpload(db, workspaceId, uploadId);
  const run = await deliveryRepo.latestRunForUpload(db, workspaceId, upload.id);
  if (!run) throw new AppError('INVALID_STATE', NOT_READY);
  const reasons = await failedRowReasons(db, run.id);
  async function* rows(): AsyncGenerator<string[]> {
    if (!reasons.size) return;
    for await (const item of preparedEvents(db, upload, readTime(run!), true)) {
      const reason = reasons.get(item.rowNumber);
      if (reason !== undefined) yield [...item.values!, reason];
    }
  }
  // A header value: only characters no browser or proxy reads differently.
  const base = upload.fileName.replace(/\.csv$/i, '').replace(/[^\w.-]+/g, '_') || 'file';
  return {
    fileName: `${base}-failed-rows.csv`,
    headers: [...upload.headers, 'reason'],
    rows: rows(),
  };
}

/** The latest send of each upload, as the dashboard's badges say it ('234 sent · 66 failed'). */
export async function deliveryOutcomes(db: Db, workspaceId: string, uploadIds: string[]) {
  const rows = await deliveryRepo.latestOutcomes(db, workspaceId, uploadIds);
  return new Map(
    rows.map((r) => [
      r.upload_id,
      {
        status: r.status,
        sent: r.sent,
        failed: r.failed,
        skipped: r.skipped,
        pixel: { name: r.account_name, pixelId: r.pixel_id },
      },
    ]),
  );
}
