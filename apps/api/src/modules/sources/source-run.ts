import { headerProblem } from '@backsignal/core';
import type { ResolvedDeps } from '../../app.ts';
import { AppError } from '../../errors/app-error.ts';
import { usersRepo } from '../accounts/users.repo.ts';
import { runSend, type EngineOptions } from '../delivery/delivery.engine.ts';
import { deliveryRepo } from '../delivery/delivery.repo.ts';
import { filesRepo } from '../files/files.repo.ts';
import { createUpload } from '../files/files.service.ts';
import { fingerprint, runPipeline } from '../files/pipeline.ts';
import type { ReportRow } from '../files/pipeline-types.ts';
import { pixelsRepo } from '../pixels/pixels.repo.ts';
import { takeQuota } from '../usage/quota.service.ts';
import type { RemoteItem } from './remote-folder.ts';
import { tooLargeReason } from './remote-folder.ts';
import { openSecret } from './source-connection.ts';
import { moveProcessed, nextFile, nothingThere } from './source-fetch.ts';
import { HostKeyChanged } from './sftp-folder.ts';
import { sourcePausedMail, tokenExpiredMail } from './sources.mails.ts';
import { sourcesRepo, type SourceRow } from './sources.repo.ts';
import { FetchFailure } from './url-fetch.ts';

export type RunnerDeps = Pick<ResolvedDeps, 'db' | 'config' | 'mailer' | 'now'> & { engine: EngineOptions };

const SKIPPED_LISTED = 100;
/** Runs in a row that may fail to read one file (network, timeout, cut transfer) before it is skipped for good. */
export const ITEM_ATTEMPTS = 3;
const HEARTBEAT_MS = 30_000;

const fileName = (s: SourceRow, now: Date, item: RemoteItem | null) =>
  item
    ? `${s.name.replace(/[^\w .-]+/g, '_').slice(0, 60) || 'source'} - ${item.name.split('/').pop()!.slice(0, 120)}`
    : `${s.name.replace(/[^\w .-]+/g, '_').slice(0, 80) || 'source'} ${now.toISOString().slice(0, 16).replace('T', ' ')}.csv`;

/** The file or object a run read (SFTP, S3), and how many were waiting with it. */
interface RunItem {
  item: RemoteItem | null;
  waiting: number;
  /**
   * The item itself could not be read or stored: 'never' when retrying cannot help (not a CSV, over the limit),
   * 'maybe' when it might (the transfer failed). Unset when the failure was not the item's (quota, Meta, us).
   */
  unreadable?: 'never' | 'maybe';
}

async function mailOwner(
  deps: RunnerDeps,
  userId: string,
  build: (to: string) => Parameters<RunnerDeps['mailer']['send']>[0],
) {
  const user = await usersRepo.findById(deps.db, userId);
  if (user) await deps.mailer.send(build(user.email));
}

/** Sends nothing, pauses the source and tells the owner why. */
async function pauseAndMail(
  deps: RunnerDeps,
  s: SourceRow,
  runId: string,
  reason: string,
  extra: object = {},
) {
  await sourcesRepo.pause(deps.db, s.userId, s.id, reason);
  await sourcesRepo.finishRun(deps.db, runId, { status: 'paused', message: reason, ...extra });
  await mailOwner(deps, s.userId, (to) =>
    sourcePausedMail(to, s.name, reason, `${deps.config.appUrl}/sources/${s.id}`),
  );
}

/**
 * Meta refused the account's token (190): every source of that pixel account pauses, and the owner gets one
 * mail. The update that pauses them is the guard: a second run seeing the same expiry pauses nothing new and
 * mails nobody.
 */
async function pauseForExpiredToken(deps: RunnerDeps, s: SourceRow) {
  if (!s.pixelAccountId) return;
  const account = await pixelsRepo.find(deps.db, s.userId, s.pixelAccountId);
  const reason = `Meta no longer accepts the access token of "${account?.name ?? 'the pixel account'}". Save a new token, then resume.`;
  const paused = await sourcesRepo.pauseForAccount(deps.db, s.pixelAccountId, reason);
  if (!paused.length) return;
  await mailOwner(deps, s.userId, (to) =>
    tokenExpiredMail(
      to,
      account?.name ?? '',
      paused.map((p) => p.name).sort(),
      `${deps.config.appUrl}/sources`,
    ),
  );
}

/**
 * One run of a source: fetch, store as an upload, apply the source's mapping and settings, validate, then send
 * the valid rows through the delivery engine with the per-pixel ledger (rows already delivered stay out, so a
 * sheet that grew by ten rows sends ten events). Too many bad rows, or mapped columns gone, send nothing and
 * pause the source. Answers the run's final status.
 */
export async function executeRun(deps: RunnerDeps, s: SourceRow, runId: string): Promise<string> {
  const beat = setInterval(() => void sourcesRepo.heartbeat(deps.db, runId).catch(() => {}), HEARTBEAT_MS);
  beat.unref();
  const picked: RunItem = { item: null, waiting: 0 };
  try {
    const status = await execute(deps, s, runId, picked);
    await afterItem(deps, s, picked, status);
    return status;
  } catch (err) {
    // Another server answers at this address, or this one was reinstalled: only the owner can tell.
    if (err instanceof HostKeyChanged) {
      await pauseAndMail(deps, s, runId, err.message);
      return 'paused';
    }
    let message =
      err instanceof FetchFailure || err instanceof AppError
        ? err.message
        : 'Backsignal hit an internal error during this run; the next run will try again.';
    if (!(err instanceof FetchFailure || err instanceof AppError)) console.error('source run failed', err);
    message += await skipUnreadable(deps, s, picked);
    await sourcesRepo.finishRun(deps.db, runId, { status: 'failed', message });
    return 'failed';
  } finally {
    clearInterval(beat);
  }
}

/**
 * A file that cannot be read must not hold back the files after it forever (runs read the oldest unread one):
 * it is remembered as seen at once when retrying cannot help, or after ITEM_ATTEMPTS failed runs. Answers what
 * the run's message adds.
 */
async function skipUnreadable(deps: RunnerDeps, s: SourceRow, picked: RunItem): Promise<string> {
  const { item, unreadable } = picked;
  if (!item || !unreadable) return '';
  if (unreadable === 'maybe') {
    const failed = (await sourcesRepo.failedRunsOf(deps.db, s.id, item.key)) + 1;
    if (failed < ITEM_ATTEMPTS) return ' The next run tries this file again.';
  }
  await sourcesRepo.markSeen(deps.db, s.id, item.key);
  if (picked.waiting > 1) await sourcesRepo.requestNextRun(deps.db, s.id, deps.now());
  return unreadable === 'never'
    ? ' It was skipped and will not be read again.'
    : ` It could not be read in ${ITEM_ATTEMPTS} runs and was skipped; it will not be read again.`;
}

/**
 * SFTP and S3: a file sent (or without anything new in it) is remembered, so it is read once; a file that made
 * the source pause is not, so it is read again after the owner fixed the mapping. When more files wait, the
 * source runs again at the next tick: a backlog drains one file per run, each with its own summary.
 */
async function afterItem(deps: RunnerDeps, s: SourceRow, picked: RunItem, status: string) {
  if (!picked.item || !(status === 'sent' || status === 'nothing_new')) return;
  await sourcesRepo.markSeen(deps.db, s.id, picked.item.key);
  if (s.connection.kind === 'sftp' && s.connection.afterProcessing === 'move') {
    const target = { sourceId: s.id, connection: s.connection, secret: openSecret(deps.config, s) };
    // The file is remembered either way, so a failed move never sends it twice.
    await moveProcessed(deps.config, target, picked.item).catch((err) =>
      console.warn('source: moving the processed file failed', s.id, (err as Error).message),
    );
  }
  if (picked.waiting > 1) await sourcesRepo.requestNextRun(deps.db, s.id, deps.now());
}

export const SEND_IN_PROGRESS =
  "An earlier run's send is still going, so this run sent nothing (no event goes to Meta twice). The next run reads the file again.";

async function execute(deps: RunnerDeps, s: SourceRow, runId: string, picked: RunItem): Promise<string> {
  const { db, config } = deps;
  const now = deps.now();
  // A run whose worker died mid-send is closed, but its send resumes on another worker. The ledger keeps events
  // already confirmed by Meta out, not those still in flight: reading the same file beside it could send twice.
  if (await sourcesRepo.sendInProgress(db, s.id)) {
    await sourcesRepo.finishRun(db, runId, { status: 'nothing_new', message: SEND_IN_PROGRESS });
    return 'nothing_new';
  }
  const account = s.pixelAccountId ? await pixelsRepo.find(db, s.userId, s.pixelAccountId) : undefined;
  if (!account) {
    await pauseAndMail(
      deps,
      s,
      runId,
      'The pixel account of this source was deleted. Choose another one, then resume.',
    );
    return 'paused';
  }
  if (account.status === 'reconnect_needed') {
    await pauseForExpiredToken(deps, s);
    await sourcesRepo.finishRun(db, runId, {
      status: 'paused',
      message: `Meta no longer accepts the access token of "${account.name}".`,
    });
    return 'paused';
  }

  const next = await nextFile(
    deps,
    { sourceId: s.id, connection: s.connection, secret: openSecret(config, s) },
    'run',
  );
  let file;
  try {
    // Trust on first use: the first server key seen is the one every later run must see.
    if (s.connection.kind === 'sftp' && !s.connection.hostKey && next.hostKey) {
      await sourcesRepo.setHostKey(db, s.id, next.hostKey);
      s.connection.hostKey = next.hostKey;
    }
    if (s.connection.kind !== 'csv_url' && !next.item) {
      await sourcesRepo.finishRun(db, runId, {
        status: 'nothing_new',
        message: nothingThere(s.connection, next.total > 0),
      });
      return 'nothing_new';
    }
    Object.assign(picked, { item: next.item, waiting: next.waiting });
    if (next.item) {
      await sourcesRepo.setRunItem(db, runId, next.item);
      // Skipped for good: a file over the limit would fail every run and hold back the files after it.
      if (next.item.size > config.maxUploadBytes) {
        await sourcesRepo.markSeen(db, s.id, next.item.key);
        if (next.waiting > 1) await sourcesRepo.requestNextRun(db, s.id, now);
        picked.item = null;
        await sourcesRepo.finishRun(db, runId, {
          status: 'failed',
          message: `${tooLargeReason(next.item, config.maxUploadBytes)} It was skipped and will not be read again.`,
        });
        return 'failed';
      }
    }
    try {
      ({ file } = await createUpload(db, s.userId, fileName(s, now, next.item), await next.read(), {
        maxBytes: config.maxUploadBytes,
        quotas: config.quotas,
        now,
      }));
    } catch (err) {
      // The daily upload quota is the account's, not the file's: the file waits for the next run.
      if (next.item && err instanceof AppError && err.code !== 'RATE_LIMITED') picked.unreadable = 'never';
      if (next.item && err instanceof FetchFailure) picked.unreadable = 'maybe';
      throw err;
    }
  } finally {
    await next.close();
  }
  await sourcesRepo.setRunUpload(db, runId, file.id, file.rowCount);

  const gone = Object.keys(s.mappings).filter((h) => !file.headers.includes(h));
  if (gone.length || headerProblem({ headers: file.headers, mappings: s.mappings })) {
    const names = gone.map((h) => `"${h}"`).join(', ');
    await pauseAndMail(
      deps,
      s,
      runId,
      gone.length
        ? `The file no longer has the mapped column${gone.length > 1 ? 's' : ''} ${names}.`
        : "The file's headers no longer match the source's mapping.",
    );
    return 'paused';
  }
  await filesRepo.saveMapping(db, file.id, {
    status: 'mapped',
    mappings: s.mappings,
    hardcodedValues: s.hardcodedValues,
    autoMapped: {},
    settings: s.settings,
  });
  let upload = (await filesRepo.findForUser(db, s.userId, file.id))!;
  // Nobody is there to choose for a scheduled run: refunds (negative Purchase values) are skipped and the run
  // says how many (docs/decisions/0098). Sending them is a choice made on a file, never by default.
  await filesRepo.setRefundChoice(db, file.id, 'skip', fingerprint(upload));
  upload = (await filesRepo.findForUser(db, s.userId, file.id))!;

  const skippedRows: { rowNumber: number; message: string }[] = [];
  const report = await runPipeline(
    db,
    upload,
    { mode: 'report', now, previewLimit: 0 },
    (items: ReportRow[]) => {
      for (const r of items)
        if (r.errors.length && skippedRows.length < SKIPPED_LISTED)
          skippedRows.push({ rowNumber: r.rowNumber, message: r.errors.map((e) => e.message).join(' ') });
    },
  );
  if (report.error) {
    await pauseAndMail(deps, s, runId, report.error);
    return 'paused';
  }
  const skipped = { rowsSkipped: report.rowsWithErrors, skippedRows };
  if (report.rowsChecked === 0) {
    await sourcesRepo.finishRun(db, runId, {
      status: 'nothing_new',
      message: 'The file has no rows.',
      ...skipped,
    });
    await filesRepo.delete(db, file.id);
    return 'nothing_new';
  }
  const share = report.rowsWithErrors / report.rowsChecked;
  if (share > s.errorThreshold) {
    const pct = Math.round(share * 100);
    await pauseAndMail(
      deps,
      s,
      runId,
      `${report.rowsWithErrors} of ${report.rowsChecked} rows (${pct}%) have errors, more than the ${Math.round(s.errorThreshold * 100)}% this source allows.`,
      skipped,
    );
    return 'paused';
  }

  const toSend = report.rowsChecked - report.rowsWithErrors - report.repeatedRows - report.refundRows;
  await filesRepo.setRefundRows(db, file.id, report.refundRows);
  const run = await db.transaction(async (tx) => {
    await takeQuota(tx, { quotas: config.quotas, userId: s.userId, action: 'send', amount: toSend, now });
    await filesRepo.setStatus(tx, file.id, 'submitted');
    return deliveryRepo.createRun(tx, {
      userId: s.userId,
      uploadId: file.id,
      accountId: account.id,
      pixelId: account.pixelId,
      accountName: account.name,
      testEventCode: s.testEventCode,
      skipDelivered: true,
      expectedEvents: toSend,
    });
  });
  await sourcesRepo.setRunSend(db, runId, run.id);
  // In this worker, awaited: the run's outcome decides the source's. A crash here leaves the send run to the
  // send-run sweeper, which resumes it batch by batch.
  await runSend(deps.engine, run.id);
  const done = (await deliveryRepo.getRun(db, run.id))!;
  if (done.stop_reason === 'token') {
    await pauseForExpiredToken(deps, s);
    await sourcesRepo.finishRun(db, runId, {
      status: 'paused',
      message: done.stop_error ?? 'Meta refused the access token.',
      ...skipped,
    });
    return 'paused';
  }
  const totals = await deliveryRepo.totals(db, run.id);
  const sentAny = totals.events_sent + totals.events_failed > 0;
  const refunds = report.refundRows
    ? `${report.refundRows} Purchase ${report.refundRows === 1 ? 'row' : 'rows'} with a negative value (refunds) skipped, not sent.`
    : null;
  const message = done.stop_reason ? (done.stop_error ?? `Sending stopped (${done.stop_reason}).`) : refunds;
  const status = done.stop_reason && !sentAny ? 'failed' : sentAny ? 'sent' : 'nothing_new';
  await sourcesRepo.finishRun(db, runId, { status, message, ...skipped });
  // An hourly source whose file did not grow would otherwise leave an upload per hour on the dashboard.
  if (status === 'nothing_new' && !report.rowsWithErrors) await filesRepo.delete(db, file.id);
  return status;
}
