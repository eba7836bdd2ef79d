import { createHash } from 'node:crypto';
import { headerProblem } from '@backsignal/core';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError } from '../../errors/app-error.ts';
import { workspacesRepo } from '../workspaces/workspaces.repo.ts';
import { runSend, type EngineOptions } from '../delivery/delivery.engine.ts';
import { mailSendNotices } from '../delivery/delivery.notices.ts';
import { deliveryRepo, ledgerKey } from '../delivery/delivery.repo.ts';
import { filesRepo } from '../files/files.repo.ts';
import { createUpload } from '../files/files.service.ts';
import { fingerprint, runPipeline } from '../files/pipeline.ts';
import type { PipelineSummary, ReportRow } from '../files/pipeline-types.ts';
import type { UploadRow } from '../files/files.repo.ts';
import { preparedEvents } from '../delivery/delivery.source.ts';
import { pixelsRepo } from '../pixels/pixels.repo.ts';
import { takeQuota } from '../usage/quota.service.ts';
import type { ActivityDetails, ActivityKind } from '@backsignal/contracts';
import type { RemoteItem } from './remote-folder.ts';
import { tooLargeReason } from './remote-folder.ts';
import { openSecrets } from './source-connection.ts';
import { moveProcessed, nextFile, nothingThere } from './source-fetch.ts';
import { HostKeyChanged } from './sftp-folder.ts';
import { stopMessage } from './run-message.ts';
import { pauseWhat, sourcePausedMail, tokenExpiredMail, type PauseCause } from './sources.mails.ts';
import { recordRunActivity } from '../activity/activity.service.ts';
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

/**
 * A source belongs to a workspace: what it needs from people goes to the workspace's owners and admins, with a
 * link at the workspace's address (an agency's people are in many workspaces).
 */
async function mailManagers(
  deps: RunnerDeps,
  workspaceId: string,
  path: string,
  build: (to: string, link: string) => Parameters<RunnerDeps['mailer']['send']>[0],
) {
  const link = `${deps.config.appUrl}/w/${await workspacesRepo.slugOf(deps.db, workspaceId)}${path}`;
  for (const to of await workspacesRepo.managerEmails(deps.db, workspaceId))
    await deps.mailer.send(build(to, link));
}

const TOKEN_REFUSED = 'Meta refused the pixel account’s token';

/** An entry of the run's in the workspace's log: the person who asked for it ("Run now"), else the schedule. */
const runActivity = (
  deps: RunnerDeps,
  s: SourceRow,
  kind: ActivityKind,
  subject: string | null,
  details: ActivityDetails,
) =>
  recordRunActivity(deps.db, {
    workspaceId: s.workspaceId,
    actorUserId: s.runRequestedBy,
    kind,
    subject,
    details,
  });

/** The run's outcome in the log, with its counts (rows and events, never a row's value). */
async function logOutcome(deps: RunnerDeps, s: SourceRow, runId: string, status: string) {
  const run = await sourcesRepo.getRun(deps.db, runId);
  await runActivity(deps, s, 'source.run_finished', s.name, {
    status,
    rows: run?.rowsRead ?? 0,
    rowsSkipped: run?.rowsSkipped ?? 0,
    sent: run?.sent ?? 0,
    failed: run?.failed ?? 0,
  });
}

/** Sends nothing, pauses the source and tells the owner why. */
async function pauseAndMail(
  deps: RunnerDeps,
  s: SourceRow,
  runId: string,
  cause: PauseCause,
  reason: string,
  extra: object = {},
) {
  await sourcesRepo.pause(deps.db, s.workspaceId, s.id, reason);
  await sourcesRepo.finishRun(deps.db, runId, { status: 'paused', message: reason, ...extra });
  await runActivity(deps, s, 'source.auto_paused', s.name, { reason: pauseWhat(cause) });
  await mailManagers(deps, s.workspaceId, `/sources/${s.id}`, (to, link) =>
    sourcePausedMail(to, s.name, cause, reason, link),
  );
}

/**
 * Meta refused the account's token (190): every source of that pixel account pauses, and the owner gets one
 * mail. The update that pauses them is the guard: a second run seeing the same expiry pauses nothing new and
 * mails nobody.
 */
async function pauseForExpiredToken(deps: RunnerDeps, s: SourceRow) {
  if (!s.pixelAccountId) return;
  const account = await pixelsRepo.find(deps.db, s.workspaceId, s.pixelAccountId);
  const reason = `Meta no longer accepts the access token of "${account?.name ?? 'the pixel account'}". Save a new token, then resume.`;
  const paused = await sourcesRepo.pauseForAccount(deps.db, s.pixelAccountId, reason);
  if (!paused.length) return;
  for (const p of paused) await runActivity(deps, s, 'source.auto_paused', p.name, { reason: TOKEN_REFUSED });
  await mailManagers(deps, s.workspaceId, '/sources', (to, link) =>
    tokenExpiredMail(to, account?.name ?? '', paused.map((p) => p.name).sort(), link),
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
    await logOutcome(deps, s, runId, status);
    await dropUnsentUpload(deps, runId);
    return status;
  } catch (err) {
    // Another server answers at this address, or this one was reinstalled: only the owner can tell.
    if (err instanceof HostKeyChanged) {
      await pauseAndMail(deps, s, runId, 'host_key', err.message);
      await logOutcome(deps, s, runId, 'paused');
      return 'paused';
    }
    let message =
      err instanceof FetchFailure || err instanceof AppError
        ? err.message
        : 'Backsignal hit an internal error during this run; the next run will try again.';
    if (!(err instanceof FetchFailure || err instanceof AppError)) console.error('source run failed', err);
    message += await skipUnreadable(deps, s, picked);
    await sourcesRepo.finishRun(deps.db, runId, { status: 'failed', message });
    await logOutcome(deps, s, runId, 'failed');
    await dropUnsentUpload(deps, runId);
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
    const target = { sourceId: s.id, connection: s.connection, secrets: openSecrets(deps.config, s) };
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
  const account = s.pixelAccountId ? await pixelsRepo.find(db, s.workspaceId, s.pixelAccountId) : undefined;
  if (!account) {
    await pauseAndMail(
      deps,
      s,
      runId,
      'account',
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
    { sourceId: s.id, connection: s.connection, secrets: openSecrets(config, s) },
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
      ({ file } = await createUpload(db, s.workspaceId, fileName(s, now, next.item), await next.read(), {
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
      'columns',
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
  let upload = (await filesRepo.findInWorkspace(db, s.workspaceId, file.id))!;
  // Nobody is there to choose for a scheduled run: refunds (negative Purchase values) are skipped and the run
  // says how many (docs/decisions/0098). Sending them is a choice made on a file, never by default.
  await filesRepo.setRefundChoice(db, file.id, 'skip', fingerprint(upload));
  upload = (await filesRepo.findInWorkspace(db, s.workspaceId, file.id))!;

  const skippedRows: { rowNumber: number; message: string }[] = [];
  const badRows: string[] = [];
  const report = await runPipeline(
    db,
    upload,
    { mode: 'report', now, previewLimit: 0 },
    (items: ReportRow[]) => {
      for (const r of items) {
        if (!r.errors.length) continue;
        badRows.push(rowHash(r.values ?? []));
        if (skippedRows.length < SKIPPED_LISTED)
          skippedRows.push({ rowNumber: r.rowNumber, message: r.errors.map((e) => e.message).join(' ') });
      }
    },
  );
  if (report.error) {
    await pauseAndMail(deps, s, runId, 'file', report.error);
    return 'paused';
  }
  const skipped = { rowsSkipped: report.rowsWithErrors, skippedRows };
  if (report.rowsChecked === 0) {
    await sourcesRepo.finishRun(db, runId, {
      status: 'nothing_new',
      message: 'The file has no rows.',
      ...skipped,
    });
    return 'nothing_new';
  }
  const share = await errorShare(deps, s, upload, account.pixelId, report, badRows);
  if (share.bad > share.of * s.errorThreshold) {
    const pct = Math.round((share.bad / share.of) * 100);
    await pauseAndMail(
      deps,
      s,
      runId,
      'bad_rows',
      `${share.bad} of ${share.of} ${share.newRows ? 'new rows' : 'rows'} (${pct}%) have errors, more than the ${Math.round(s.errorThreshold * 100)}% this source allows.`,
      skipped,
    );
    return 'paused';
  }
  // Let through: these rows are skipped, and no longer new to the next run.
  await sourcesRepo.rememberBadRows(db, s.id, [...new Set(badRows)], now);

  const toSend = report.rowsChecked - report.rowsWithErrors - report.repeatedRows - report.refundRows;
  await filesRepo.setRefundRows(db, file.id, report.refundRows);
  const run = await db.transaction(async (tx) => {
    await takeQuota(tx, {
      quotas: config.quotas,
      workspaceId: s.workspaceId,
      action: 'send',
      amount: toSend,
      now,
    });
    await filesRepo.setStatus(tx, file.id, 'submitted');
    return deliveryRepo.createRun(tx, {
      workspaceId: s.workspaceId,
      uploadId: file.id,
      accountId: account.id,
      pixelId: account.pixelId,
      accountName: account.name,
      testEventCode: s.testEventCode,
      skipDelivered: true,
      expectedEvents: toSend,
      startedBy: s.runRequestedBy,
    });
  });
  await sourcesRepo.setRunSend(db, runId, run.id);
  await runActivity(deps, s, 'send.started', file.fileName, { pixelId: account.pixelId, source: s.name });
  // In this worker, awaited: the run's outcome decides the source's. A crash here leaves the send run to the
  // send-run sweeper, which resumes it batch by batch.
  await runSend(deps.engine, run.id);
  await mailSendNotices(deps);
  const done = (await deliveryRepo.getRun(db, run.id))!;
  if (done.stop_reason === 'token') {
    await pauseForExpiredToken(deps, s);
    await sourcesRepo.finishRun(db, runId, {
      status: 'paused',
      message: stopMessage('token', done.stop_error),
      ...skipped,
    });
    return 'paused';
  }
  const totals = await deliveryRepo.totals(db, run.id);
  const sentAny = totals.events_sent + totals.events_failed > 0;
  const refunds = report.refundRows
    ? `${report.refundRows} Purchase ${report.refundRows === 1 ? 'row' : 'rows'} with a negative value (refunds) skipped, not sent.`
    : null;
  const message = done.stop_reason ? stopMessage(done.stop_reason, done.stop_error) : refunds;
  const status = done.stop_reason && !sentAny ? 'failed' : sentAny ? 'sent' : 'nothing_new';
  await sourcesRepo.finishRun(db, runId, { status, message, ...skipped });
  return status;
}

const rowHash = (values: readonly string[]) =>
  createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 22);

/**
 * The rows with errors against the rows the threshold weighs. Until the source remembered its rows with errors
 * once, every row of the file (its first run). After that only new rows: rows with errors no earlier run let
 * through, and rows without errors whose event the pixel has not received. A sheet that grew by five broken rows
 * is then 5 of 5, not 5 of 105 (decision 0100). The file is read a second time only when new rows have errors.
 */
async function errorShare(
  deps: RunnerDeps,
  s: SourceRow,
  upload: UploadRow,
  pixelId: string,
  report: PipelineSummary,
  badRows: string[],
): Promise<{ bad: number; of: number; newRows: boolean }> {
  if (!s.badRowsKnownAt) return { bad: report.rowsWithErrors, of: report.rowsChecked, newRows: false };
  const known = await sourcesRepo.knownBadRows(deps.db, s.id, [...new Set(badRows)]);
  const bad = badRows.filter((h) => !known.has(h)).length;
  if (!bad) return { bad: 0, of: 0, newRows: true };
  // As the send's skip_delivered: only live deliveries count as received.
  let fresh = 0;
  let chunk: { name: string; id: string }[] = [];
  const flush = async () => {
    const ids = chunk.map((c) => c.id);
    const { live } = await deliveryRepo.deliveredBefore(deps.db, pixelId, ids, null);
    fresh += chunk.filter((c) => !live.has(ledgerKey(c.name, c.id))).length;
    chunk = [];
  };
  for await (const { event } of preparedEvents(deps.db, upload, deps.now())) {
    chunk.push({ name: event.event_name, id: event.event_id });
    if (chunk.length >= 1000) await flush();
  }
  if (chunk.length) await flush();
  return { bad, of: bad + fresh, newRows: true };
}

/**
 * A run that sent nothing keeps no upload: an hourly source whose file did not grow, or one paused by a broken
 * export, would otherwise add an upload per run to the dashboard. The run's own record (rows, skipped rows,
 * message, events already delivered) stays in the run history. A send still going (resumed elsewhere) keeps it.
 */
async function dropUnsentUpload(deps: RunnerDeps, runId: string) {
  const run = await sourcesRepo.getRun(deps.db, runId);
  if (!run?.uploadId || run.sent + run.failed > 0) return;
  if (run.sendRunId && (await deliveryRepo.getRun(deps.db, run.sendRunId))?.status === 'running') return;
  await sourcesRepo.dropUpload(deps.db, runId, run.uploadId, run.alreadyDelivered);
}
