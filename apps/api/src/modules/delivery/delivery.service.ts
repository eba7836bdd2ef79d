import {
  SUMMARY_PAGE,
  type BatchSummary,
  type DeliverySummary,
  type SendRequest,
} from '@backsignal/contracts';
import { explainMetaError, explainStop, type Verdict } from '@backsignal/core';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/db.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { filesRepo, type UploadRow } from '../files/files.repo.ts';
import { getAccountWithToken } from '../pixels/pixels.service.ts';
import { takeQuota } from '../usage/quota.service.ts';
import { deliveryRepo, ledgerKey, type BatchRow, type RunRow } from './delivery.repo.ts';
import { preparedEvents } from './delivery.source.ts';

export const SEND_RUN_JOB = 'send-run';
export const NOT_READY = 'Cannot submit: data not in the right state';
export const NO_ACCOUNT = 'Please select or save an account first';
export const NOT_FAILED = 'Only the rows of a failed batch can be downloaded.';

async function ownUpload(db: Db, userId: string, id: string): Promise<UploadRow> {
  const upload = await filesRepo.findForUser(db, userId, id);
  if (!upload) throw notFound('File not found.');
  return upload;
}

/**
 * Records a run and hands it to the queue; the send itself happens in the worker so the user may close the
 * window. The prepared → submitted move is the guard against a double click starting two runs.
 */
export async function startSend(
  deps: { db: Db; config: Config; queue?: PgBoss; now: () => Date },
  userId: string,
  uploadId: string,
  body: SendRequest,
): Promise<RunRow> {
  const { db } = deps;
  const upload = await ownUpload(db, userId, uploadId);
  if (upload.status !== 'prepared') throw new AppError('INVALID_STATE', NOT_READY);
  const account = await getAccountWithToken(db, deps.config, userId, body.selectedAccountId);
  if (!account) throw new AppError('VALIDATION_FAILED', NO_ACCOUNT, { selectedAccountId: NO_ACCOUNT });
  if (!deps.queue) throw new AppError('INTERNAL', 'Submission failed');
  const run = await db.transaction(async (tx) => {
    await takeQuota(tx, {
      quotas: deps.config.quotas,
      userId,
      action: 'send',
      amount: upload.rowCount,
      now: deps.now(),
    });
    if (!(await filesRepo.transition(tx, uploadId, ['prepared'], 'submitted')))
      throw new AppError('INVALID_STATE', NOT_READY);
    return deliveryRepo.createRun(tx, {
      userId,
      uploadId,
      accountId: account.id,
      pixelId: account.pixelId,
      accountName: account.name,
      testEventCode: body.testEventCode?.trim() || null,
      skipDelivered: body.skipDelivered ?? true,
      // A prepared file has no row with errors, so this is at most the events to send: rows repeating an
      // earlier row's event and events already delivered come off once the file is planned.
      expectedEvents: upload.rowCount,
    });
  });
  await deps.queue.send(SEND_RUN_JOB, { runId: run.id }, { singletonKey: run.id });
  return run;
}

/** Rows inside a batch's range that it does not carry: a bad row isolated from it, or rows skipped before. */
function rowsNotIn(b: BatchRow, listed = 3): { rows: number[]; count: number } {
  const carried = new Set(b.row_numbers);
  const rows: number[] = [];
  for (let r = b.first_row; r <= b.last_row && rows.length < listed; r++) if (!carried.has(r)) rows.push(r);
  return { rows, count: b.last_row - b.first_row + 1 - carried.size };
}

function presentBatch(b: BatchRow, index: number): BatchSummary {
  const failed = b.status === 'failed';
  const gaps = rowsNotIn(b);
  return {
    batchId: b.id,
    index,
    status: b.status === 'split' ? 'sent' : b.status,
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

/**
 * Polled every 1.5 s while sending, so it stays small: totals plus failed batches only. A finished run lists
 * every batch, failed first, a page at a time.
 */
export async function summary(
  db: Db,
  userId: string,
  uploadId: string,
  batchOffset = 0,
): Promise<DeliverySummary> {
  const upload = await ownUpload(db, userId, uploadId);
  const run = await deliveryRepo.latestRunForUpload(db, userId, upload.id);
  if (!run) throw new AppError('INVALID_STATE', NOT_READY);
  const onlyFailed = run.status === 'running';
  const [totals, page] = await Promise.all([
    deliveryRepo.totals(db, run.id),
    deliveryRepo.leavesPage(db, run.id, { onlyFailed, offset: batchOffset, limit: SUMMARY_PAGE }),
  ]);
  const listed = onlyFailed
    ? totals.batches_failed
    : totals.batches_sent + totals.batches_failed + totals.batches_open;
  const next = batchOffset + page.length;
  // A run that ended before any worker read its file to the end never learnt how many events it was to send or
  // skip: the count it started with still holds repeated rows and events already delivered, so it is not
  // reported as the total, and nothing is said to remain or to have been skipped.
  const counted = run.planned || run.status === 'running';
  return {
    runId: run.id,
    status: run.status,
    totalBatches: totals.batches_sent + totals.batches_failed + totals.batches_open,
    totalSent: totals.events_sent,
    totalFailed: totals.events_failed,
    pixelAccount: { name: run.account_name, pixelId: run.pixel_id },
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
      eventsRemaining:
        !counted || run.total_events === null
          ? null
          : Math.max(0, run.total_events - totals.events_sent - totals.events_failed),
      eventsSkipped: run.planned ? run.skipped_events : null,
    },
    stopReason: run.stop_reason,
    stopExplanation: run.stop_reason ? explainStop(run.stop_reason, run.stop_error) : null,
    startedAt: run.started_at?.toISOString() ?? null,
    finishedAt: run.finished_at?.toISOString() ?? null,
  };
}

/** How many of the file's events the account's pixel already received, live and as test events (/submit). */
export async function deliveredBefore(
  db: Db,
  config: Config,
  userId: string,
  uploadId: string,
  accountId: string,
  now: Date,
): Promise<{ live: number; test: number }> {
  const upload = await ownUpload(db, userId, uploadId);
  const account = await getAccountWithToken(db, config, userId, accountId);
  if (!account) throw notFound('Pixel account not found.');
  const count = { live: 0, test: 0 };
  let chunk: { name: string; id: string }[] = [];
  const flush = async () => {
    const hits = await deliveryRepo.deliveredBefore(
      db,
      userId,
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

/** A batch's original CSV rows plus why it failed, for the failed-rows download. */
export async function batchRows(db: Db, userId: string, uploadId: string, batchId: string) {
  const upload = await ownUpload(db, userId, uploadId);
  const batch = await deliveryRepo.findBatchForUser(db, userId, upload.id, batchId);
  if (!batch || batch.status === 'split') throw notFound('Batch not found.');
  // Only failed rows are offered: the download exists to fix and resend them, never to re-export sent data.
  if (batch.status !== 'failed') throw new AppError('INVALID_STATE', NOT_FAILED);
  const run = (await deliveryRepo.getRun(db, batch.run_id))!;
  const index = await deliveryRepo.leafPosition(db, batch);
  const e = explainMetaError(batch.error_raw, (batch.verdict as Verdict | null) ?? null);
  const reason = [e.title, e.metaTitle, e.metaMessage].filter(Boolean).join(': ');
  const wanted = new Set(batch.row_numbers);
  async function* rows(): AsyncGenerator<string[]> {
    for await (const item of preparedEvents(db, upload, run.created_at)) {
      if (wanted.has(item.rowNumber)) yield [...item.values, reason];
    }
  }
  // Named by the number the summary shows ('Batch 3'), not the zero-based index.
  return {
    fileName: `failed-rows-batch-${index + 1}.csv`,
    headers: [...upload.headers, 'reason'],
    rows: rows(),
  };
}
