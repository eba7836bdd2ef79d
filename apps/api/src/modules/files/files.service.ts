import type {
  FileSettings,
  PrepareResponse,
  PreviewResponse,
  StatusUpdate,
  ValidationResponse,
} from '@backsignal/contracts';
import { DEFAULT_FILE_SETTINGS, headerProblem, isTimeZone, mappingProblem } from '@backsignal/core';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { filesRepo, type UploadRow } from './files.repo.ts';
import { presentDrops, presentRow } from './files.presenter.ts';
import { ingest, type IngestResult } from './ingest.ts';
import { effectiveSettings, fingerprint, refundChoice, runPipeline } from './pipeline.ts';
import type { PipelineSummary } from './pipeline-types.ts';
import { checkQuota, takeQuota, type Quotas } from '../usage/quota.service.ts';
import { usageRepo } from '../usage/usage.repo.ts';

export const SUBMITTED = 'This file is already submitted. Please upload a new file.';
const NOT_READY = 'File is not ready to be submitted.';
/** A file still 'uploaded' has no confirmed mapping (auto-save only): validation starts from /map-columns. */
export const NOT_MAPPED = 'Please finish mapping this file before validating it.';

/** The user's own file, or the same 404 as a file that does not exist. */
export async function ownFile(db: Db, workspaceId: string, id: string): Promise<UploadRow> {
  const f = await filesRepo.findInWorkspace(db, workspaceId, id);
  if (!f) throw notFound('File not found.');
  return f;
}

/** Deletes a workspace's upload with its stored bytes; answers what was deleted, for the activity log. */
export async function deleteOwnFile(db: Db, workspaceId: string, id: string): Promise<UploadRow> {
  const f = await ownFile(db, workspaceId, id);
  await filesRepo.delete(db, f.id);
  return f;
}

/** Whether the user chose to leave this file's rows with errors out, for exactly its current content and mapping. */
export function skipsErrorRows(f: UploadRow): boolean {
  return f.skipErrorsFingerprint !== null && f.skipErrorsFingerprint === fingerprint(f);
}

export function notSubmitted(f: UploadRow) {
  if (f.status === 'submitted') throw new AppError('INVALID_STATE', SUBMITTED);
}

/** What an upload may take: the size of one file, and the account's daily quota (checked before, counted after). */
export interface UploadLimits {
  maxBytes: number;
  quotas: Quotas;
  now: Date;
}

/**
 * Reads an upload within the daily quota. Its size is known only once read, so a file that starts under the
 * quota is read whole and counted in full: the quota can be passed by at most one file.
 */
async function ingestWithinQuota(
  db: Db,
  workspaceId: string,
  fileName: string,
  stream: AsyncIterable<Uint8Array>,
  limits: UploadLimits,
): Promise<IngestResult> {
  // The size is not known yet: refuse only when not a byte is left.
  await checkQuota(db, { quotas: limits.quotas, workspaceId, action: 'upload', amount: 1, now: limits.now });
  // Counted as the bytes arrive, so a refused file (binary, too large) counts what was read of it too.
  let bytes = 0;
  async function* counted() {
    for await (const chunk of stream) {
      bytes += chunk.byteLength;
      yield chunk;
    }
  }
  try {
    return await ingest(db, workspaceId, fileName, counted(), limits.maxBytes);
  } finally {
    if (bytes) await usageRepo.record(db, workspaceId, 'upload', bytes, limits.now);
  }
}

export async function createUpload(
  db: Db,
  workspaceId: string,
  fileName: string,
  stream: AsyncIterable<Uint8Array>,
  limits: UploadLimits,
) {
  const r = await ingestWithinQuota(db, workspaceId, fileName, stream, limits);
  await filesRepo.complete(db, r.id, r);
  return { file: (await filesRepo.findInWorkspace(db, workspaceId, r.id))!, ingest: r };
}

/** Replaces a file's bytes with a corrected version, keeping its mapping; the old bytes stay until it succeeds. */
export async function replaceUpload(
  db: Db,
  workspaceId: string,
  id: string,
  fileName: string,
  stream: AsyncIterable<Uint8Array>,
  limits: UploadLimits,
) {
  const f = await ownFile(db, workspaceId, id);
  notSubmitted(f);
  const r = await ingestWithinQuota(db, workspaceId, fileName, stream, limits);
  await db.transaction(async (tx) => {
    await filesRepo.deleteChunks(tx, id);
    await tx.query('update upload_chunks set upload_id = $1 where upload_id = $2', [id, r.id]);
    // The file keeps its name: the list shows it once, as corrected, not as a second file.
    await filesRepo.replaceContent(tx, id, { ...r, fileName: f.fileName });
    await filesRepo.delete(tx, r.id);
  });
  return { file: (await filesRepo.findInWorkspace(db, workspaceId, id))!, ingest: r };
}

/** Equal as data, whatever the order of keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([x], [y]) => (x < y ? -1 : 1))
            .map(([k, x]) => [k, canon(x)]),
        )
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function checkSettings(s: FileSettings): FileSettings {
  if (!isTimeZone(s.timeZone)) throw new AppError('VALIDATION_FAILED', `Unknown time zone "${s.timeZone}".`);
  return { ...s, defaultCountry: s.defaultCountry.toUpperCase() };
}

/**
 * The server's half of spec §4: auto-save and 'mapped' store the mapping ('mapped' only when the spec's rules
 * pass), 'validated' only after a clean validation of exactly this file and mapping. Submitted files are final.
 */
export async function updateStatus(
  db: Db,
  workspaceId: string,
  id: string,
  body: StatusUpdate,
): Promise<UploadRow> {
  const f = await ownFile(db, workspaceId, id);
  notSubmitted(f);
  if (body.status === 'validated') {
    if (!['mapped', 'validated', 'prepared'].includes(f.status))
      throw new AppError('INVALID_STATE', NOT_MAPPED);
    const fp = fingerprint(f);
    if (f.cleanFingerprint !== fp) {
      // The spec's block stays the default; skipping is an explicit choice for rows this validation found.
      if (!body.skipErrorRows || f.skippableFingerprint !== fp)
        throw new AppError('INVALID_STATE', 'You must fix all errors before continuing.');
      await filesRepo.setSkipErrors(db, id, fp);
    }
    // Refunds are never sent, nor left out, silently: the user chooses first (docs/decisions/0098).
    if (f.refundRows > 0 && refundChoice(f) === 'ask')
      throw new AppError('INVALID_STATE', refundsAsk(f.refundRows));
    if (f.status === 'mapped') await filesRepo.setStatus(db, id, 'validated');
    return (await filesRepo.findInWorkspace(db, workspaceId, id))!;
  }
  const mappings = body.mappings ?? f.mappings;
  const hardcodedValues = body.hardcodedValues ?? f.hardcodedValues;
  // A new mapping without flags is all the user's own: old flags must not mark its columns as suggested.
  const autoMapped = body.autoMapped ?? (body.mappings ? {} : f.autoMapped);
  const settings = checkSettings(body.settings ?? f.settings ?? DEFAULT_FILE_SETTINGS);
  if (body.status === 'mapped') {
    const problem =
      mappingProblem({ mappings, hardcoded: hardcodedValues }) ??
      headerProblem({ headers: f.headers, mappings });
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
  }
  // An auto-save of the mapping already stored (a screen opened, nothing edited) keeps the file where it is:
  // opening /map-columns of a prepared file must not send it back to 'uploaded'.
  const unchanged =
    body.status === 'uploaded' &&
    f.mappingSaved &&
    sameJson(mappings, f.mappings) &&
    sameJson(hardcodedValues, f.hardcodedValues) &&
    sameJson(settings, f.settings ?? DEFAULT_FILE_SETTINGS);
  if (unchanged) {
    // Nothing the validation depends on changed: its result (and the status it allowed) still holds.
    if (!sameJson(autoMapped, f.autoMapped)) await filesRepo.saveAutoMapped(db, id, autoMapped);
    return (await filesRepo.findInWorkspace(db, workspaceId, id))!;
  }
  await filesRepo.saveMapping(db, id, {
    status: body.status,
    mappings,
    hardcodedValues,
    autoMapped,
    settings,
  });
  return (await filesRepo.findInWorkspace(db, workspaceId, id))!;
}

/**
 * Counts one pass over the whole file against the daily quota: a validation or a prepare, or a download that
 * repeats one (the validation report, the full preview).
 */
export const takePass = (
  db: Db,
  quotas: Quotas,
  workspaceId: string,
  f: UploadRow,
  action: 'validate' | 'prepare',
  now: Date,
) => db.transaction((tx) => takeQuota(tx, { quotas, workspaceId, action, amount: f.rowCount, now }));

/**
 * A pass over the whole file that a background job runs (docs/decisions/0091): `check` refuses a file in the
 * wrong state before anything is spent, `read` reads every row (no writes), `save` writes what the pass found
 * in the transaction that finishes the job and answers the job's result or the error it ends on.
 */
export interface FilePass<R> {
  quota: 'validate' | 'prepare';
  check(f: UploadRow): void;
  read(db: Db, f: UploadRow, now: Date, onProgress: (rowsDone: number) => void): Promise<PipelineSummary>;
  save(tx: Queryable, f: UploadRow, summary: PipelineSummary): Promise<{ result: R } | { error: AppError }>;
}

/** The block while the user has not chosen what to do with the file's refund rows. */
export const refundsAsk = (n: number) =>
  `Choose whether to skip or send the ${n.toLocaleString('en-US')} Purchase ${n === 1 ? 'row' : 'rows'} with a negative value (refunds) before continuing.`;

/** The user's choice for the refund rows of the file as it is now (its content, mapping and settings). */
export async function chooseRefunds(db: Db, workspaceId: string, id: string, choice: 'skip' | 'send') {
  const f = await ownFile(db, workspaceId, id);
  notSubmitted(f);
  await filesRepo.setRefundChoice(db, id, choice, fingerprint(f));
  return { choice, refundRows: f.refundRows };
}

/** Validates the whole file; a clean run records the fingerprint that allows 'validated'. */
export const validatePass: FilePass<ValidationResponse> = {
  quota: 'validate',
  check(f) {
    notSubmitted(f);
    if (f.status === 'uploaded') throw new AppError('INVALID_STATE', NOT_MAPPED);
  },
  read: (db, f, now, onProgress) =>
    runPipeline(db, f, { mode: 'validate', now, lane: 'requests', onProgress }),
  async save(tx, f, s) {
    const fp = fingerprint(f);
    const clean = !s.error && s.rowsWithErrors === 0 && s.rowsChecked > 0;
    await filesRepo.setClean(
      tx,
      f.id,
      clean
        ? {
            fingerprint: fp,
            rows: s.rowsChecked,
            repeats: s.repeatedRows,
            validUntil: s.validUntil === null ? null : new Date(s.validUntil * 1000),
          }
        : null,
    );
    const sendable = s.rowsChecked - s.rowsWithErrors - s.repeatedRows;
    const skippable = !s.error && s.rowsWithErrors > 0 && sendable > 0;
    await filesRepo.setErrorRows(tx, f.id, s.rowsWithErrors, skippable ? fp : null);
    await filesRepo.setRefundRows(tx, f.id, s.error ? 0 : s.refundRows);
    return {
      result: {
        rows: s.preview.map(presentRow),
        rowsChecked: s.rowsChecked,
        rowsWithErrors: s.rowsWithErrors,
        rowsCorrected: s.rowsCorrected,
        rowsWithWarnings: s.rowsWithWarnings,
        rowsWithDrops: s.rowsWithDrops,
        droppedValues: presentDrops(s.drops),
        timeZone: effectiveSettings(f).timeZone,
        skipErrorRows: s.rowsWithErrors > 0 && skipsErrorRows(f),
        refundRows: s.error ? 0 : s.refundRows,
        refundChoice: refundChoice(f),
        fileIssues: s.fileIssues,
        fileNotices: s.fileNotices.map(({ code, message, count }) => ({ code, message, count })),
        quality: s.quality,
        ...(s.error ? { error: s.error } : {}),
      },
    };
  },
};

/**
 * Prepare's pass would find what a clean validation found when nothing it depends on has changed: the same file,
 * mapping and settings (the fingerprint), and no accepted event old enough yet to leave Meta's window (a clean
 * file has no error that time could clear). Then the file is not read again (issue 22, item 4).
 */
function cleanValidation(f: UploadRow, now: Date): PipelineSummary | null {
  if (!f.clean || f.cleanFingerprint !== fingerprint(f) || now >= f.clean.validUntil) return null;
  return {
    rowsChecked: f.clean.rows,
    rowsWithErrors: 0,
    rowsCorrected: 0,
    rowsWithWarnings: 0,
    rowsWithDrops: 0,
    drops: {},
    repeatedRows: f.clean.repeats,
    refundRows: f.refundRows,
    validEvents: f.clean.rows - f.clean.repeats,
    validUntil: f.clean.validUntil.getTime() / 1000,
    preview: [],
    fileIssues: [],
    fileNotices: [],
    quality: null,
    stoppedEarly: false,
  };
}

/** Spec §4: prepare moves validated → prepared (and is idempotent on prepared). */
export const preparePass: FilePass<PrepareResponse> = {
  quota: 'prepare',
  check(f) {
    if (f.status !== 'validated' && f.status !== 'prepared') throw new AppError('INVALID_STATE', NOT_READY);
  },
  async read(db, f, now, onProgress) {
    const reused = cleanValidation(f, now);
    if (reused) {
      onProgress(f.rowCount);
      return reused;
    }
    return runPipeline(db, f, { mode: 'validate', now, previewLimit: 0, lane: 'requests', onProgress });
  },
  async save(tx, f, s) {
    const skip = skipsErrorRows(f);
    const refunds = refundChoice(f);
    const skippedRefundRows = refunds === 'send' ? 0 : s.refundRows;
    const totalCount = s.rowsChecked - s.repeatedRows - s.rowsWithErrors - skippedRefundRows;
    if (s.error || (s.rowsWithErrors > 0 && (!skip || totalCount + skippedRefundRows <= 0))) {
      // Time passed since validation (events aged out of Meta's window): back to validation.
      await filesRepo.transition(tx, f.id, ['validated', 'prepared'], 'mapped');
      return {
        error: new AppError(
          'INVALID_STATE',
          s.error ?? `${s.rowsWithErrors} rows no longer pass validation. Please validate the file again.`,
        ),
      };
    }
    if (s.rowsWithErrors !== f.errorRows)
      await filesRepo.setErrorRows(tx, f.id, s.rowsWithErrors, f.skippableFingerprint);
    if (s.refundRows !== f.refundRows) await filesRepo.setRefundRows(tx, f.id, s.refundRows);
    // Refunds found since the choice was asked for (or never asked): nothing goes out until the user chooses.
    if (s.refundRows > 0 && refunds === 'ask')
      return { error: new AppError('INVALID_STATE', refundsAsk(s.refundRows)) };
    await filesRepo.transition(tx, f.id, ['validated'], 'prepared');
    // Rows repeating an earlier row's event, and the rows with errors the user chose to skip, are left out: the
    // total is what will be sent.
    return {
      result: { totalCount, status: 'prepared', skippedErrorRows: s.rowsWithErrors, skippedRefundRows },
    };
  },
};

export async function previewFile(db: Db, workspaceId: string, id: string, now: Date, limit: number) {
  const f = await ownFile(db, workspaceId, id);
  if (f.status !== 'validated' && f.status !== 'prepared') throw new AppError('INVALID_STATE', NOT_READY);
  const previewRows: Record<string, unknown>[] = [];
  const previewDetails: PreviewResponse['previewDetails'] = [];
  // Reads only as far as the first `limit` events; the file passed validation, so its row count (less the rows
  // with errors the user chose to skip) is the total.
  const summary = await runPipeline(
    db,
    f,
    { mode: 'events', now, previewLimit: 0, stopAfterEvents: limit, withNormalized: true, lane: 'requests' },
    (items) => {
      for (const it of items) {
        if (previewRows.length >= limit) break;
        previewRows.push(JSON.parse(it.event.json) as Record<string, unknown>);
        previewDetails.push({ rowNumber: it.rowNumber, normalized: it.normalized ?? {} });
      }
    },
  );
  const skipped = (skipsErrorRows(f) ? f.errorRows : 0) + (refundChoice(f) === 'send' ? 0 : f.refundRows);
  return {
    previewRows,
    previewDetails,
    timeZone: effectiveSettings(f).timeZone,
    totalCount: summary.stoppedEarly ? f.rowCount - skipped : summary.validEvents,
  } satisfies PreviewResponse;
}
