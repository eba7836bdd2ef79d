import type { V1EventRow, V1EventsRequest, V1EventsResponse } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError } from '../../errors/app-error.ts';
import { engineOptions } from '../delivery/delivery.options.ts';
import { runSend } from '../delivery/delivery.engine.ts';
import { deliveryRepo } from '../delivery/delivery.repo.ts';
import { failedRowReasons } from '../delivery/delivery.service.ts';
import { filesRepo, type UploadRow } from '../files/files.repo.ts';
import * as files from '../files/files.service.ts';
import { fingerprint, runPipeline } from '../files/pipeline.ts';
import type { ReportRow } from '../files/pipeline-types.ts';
import { pixelsRepo } from '../pixels/pixels.repo.ts';
import { takeQuota } from '../usage/quota.service.ts';
import { resolveMapping } from './v1-mapping.ts';

/** The file's first data row is row 2: row 1 is the header, as a spreadsheet numbers them. */
const FIRST_ROW = 2;

const cell = (v: string | number | boolean | null | undefined) => {
  const s = v === null || v === undefined ? '' : String(v);
  return `"${s.replace(/"/g, '""')}"`;
};

/** The rows as a CSV file, columns in the order they first appear, written in 64 KB pieces. */
async function* asCsv(rows: V1EventsRequest['rows']): AsyncGenerator<Uint8Array> {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  let out = columns.map(cell).join(',') + '\r\n';
  for (const r of rows) {
    out += columns.map((c) => cell(r[c])).join(',') + '\r\n';
    if (out.length >= 65_536) {
      yield Buffer.from(out);
      out = '';
    }
  }
  if (out) yield Buffer.from(out);
}

async function pixelAccount(deps: ResolvedDeps, workspaceId: string, named: string) {
  const wanted = named.toLowerCase();
  const all = await pixelsRepo.list(deps.db, workspaceId);
  const p =
    all.find((a) => a.id === named) ??
    all.find((a) => a.name.toLowerCase() === wanted) ??
    all.find((a) => a.pixelId === named);
  if (!p)
    throw new AppError('VALIDATION_FAILED', `No pixel account is named "${named}".`, {
      pixelAccount: 'No pixel account of this id, name or pixel id.',
    });
  return p;
}

/**
 * POST /api/v1/events (decision 0114): the rows become a stored upload through the files service, take the
 * mapping a source's run takes (template or columns, file settings, refunds skipped unless asked), are read by
 * the same pipeline (validation, correction, hashing) and sent by the same engine, awaited (ledger, batching,
 * isolation of refused rows). The answer says per row what happened. The upload stays, listed with its summary
 * and failed rows like any file.
 */
export async function sendEvents(
  deps: ResolvedDeps,
  workspaceId: string,
  startedBy: string,
  body: V1EventsRequest,
): Promise<{ answer: V1EventsResponse; fileName: string; pixelId: string }> {
  const { db, config } = deps;
  const now = deps.now();
  const account = await pixelAccount(deps, workspaceId, body.pixelAccount);
  const mapping = await resolveMapping(db, workspaceId, body, null);
  const { file } = await files.createUpload(
    db,
    workspaceId,
    `api-events-${now.toISOString()}.csv`,
    asCsv(body.rows),
    {
      maxBytes: config.maxUploadBytes,
      quotas: config.quotas,
      now,
    },
  );
  let upload: UploadRow;
  try {
    await files.updateStatus(db, workspaceId, file.id, { status: 'mapped', ...mapping });
    upload = (await filesRepo.findInWorkspace(db, workspaceId, file.id))!;
    await filesRepo.setRefundChoice(db, file.id, body.refunds ?? 'skip', fingerprint(upload));
    upload = (await filesRepo.findInWorkspace(db, workspaceId, file.id))!;
    await files.takePass(db, config.quotas, workspaceId, upload, 'validate', now);
  } catch (err) {
    // Nothing of the call was done: no file is left behind for a mapping or quota the call got wrong.
    await filesRepo.delete(db, file.id);
    throw err;
  }

  const problems = new Map<number, ReportRow>();
  const report = await runPipeline(
    db,
    upload,
    { mode: 'report', now, previewLimit: 0 },
    (items: ReportRow[]) => {
      for (const r of items) problems.set(r.rowNumber, r);
    },
  );
  if (report.error) {
    await filesRepo.delete(db, file.id);
    throw new AppError('VALIDATION_FAILED', report.error);
  }
  await filesRepo.setRefundRows(db, file.id, report.refundRows);
  const toSend = report.rowsChecked - report.rowsWithErrors - report.repeatedRows - report.refundRows;

  let runId: string | null = null;
  let status: V1EventsResponse['status'] = 'nothing_sent';
  let message: string | null = null;
  let sent = new Set<number>();
  let failed = new Map<number, string>();
  if (toSend > 0) {
    const run = await db
      .transaction(async (tx) => {
        await takeQuota(tx, { quotas: config.quotas, workspaceId, action: 'send', amount: toSend, now });
        await filesRepo.setStatus(tx, file.id, 'submitted');
        return deliveryRepo.createRun(tx, {
          startedBy,
          workspaceId,
          uploadId: file.id,
          accountId: account.id,
          pixelId: account.pixelId,
          accountName: account.name,
          testEventCode: body.testEventCode || null,
          skipDelivered: body.skipDelivered ?? true,
          expectedEvents: toSend,
        });
      })
      .catch(async (err: unknown) => {
        // The daily send quota: nothing went, and no file is left behind either.
        await filesRepo.delete(db, file.id);
        throw err;
      });
    runId = run.id;
    await runSend(engineOptions(deps), run.id);
    const done = (await deliveryRepo.getRun(db, run.id))!;
    status = done.status;
    message = done.stop_error ?? null;
    sent = new Set(await deliveryRepo.sentRowNumbers(db, run.id));
    failed = await failedRowReasons(db, run.id);
  }

  const rows: V1EventRow[] = body.rows.map((_, index) => {
    const n = index + FIRST_ROW;
    const p = problems.get(n);
    const row: V1EventRow = { index, status: 'skipped' };
    if (p?.errors.length) {
      row.status = 'refused';
      row.errors = p.errors.map((e) => ({ field: e.field, message: e.message }));
      return row;
    }
    if (sent.has(n)) row.status = 'sent';
    else if (failed.has(n)) {
      row.status = 'failed';
      row.reason = failed.get(n);
    } else if (status === 'running') row.status = 'pending';
    if (p?.corrections.length)
      row.corrected = p.corrections.map((c) => ({ field: c.field, message: c.message }));
    if (p?.drops.length)
      row.dropped = p.drops.map((d) => ({ field: d.field, message: d.message, reason: d.reason }));
    return row;
  });
  const count = (s: V1EventRow['status']) => rows.filter((r) => r.status === s).length;
  const answer: V1EventsResponse = {
    uploadId: file.id,
    runId,
    status,
    message,
    counts: {
      rows: rows.length,
      sent: count('sent'),
      corrected: rows.filter((r) => r.corrected && r.status !== 'refused').length,
      dropped: rows.filter((r) => r.dropped && r.status !== 'refused').length,
      refused: count('refused'),
      failed: count('failed'),
      skipped: count('skipped'),
      pending: count('pending'),
    },
    rows,
  };
  return { answer, fileName: file.fileName, pixelId: account.pixelId };
}
