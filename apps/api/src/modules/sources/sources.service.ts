import { randomUUID } from 'node:crypto';
import {
  type SourceDetail,
  type SourceInput,
  type SourceRunSummary,
  type SourceSummary,
  type TestFetchRequest,
  type TestFetchResponse,
  type UploadList,
  sameSecretTarget,
} from '@backsignal/contracts';
import { createCsvReader, describeSchedule, isTimeZone, mappingProblem, nextRunAt } from '@backsignal/core';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { fileTooLargeMessage } from '../../lib/upload-limit.ts';
import { deliveryOutcomes } from '../delivery/delivery.service.ts';
import { filesRepo } from '../files/files.repo.ts';
import { presentUpload } from '../files/files.presenter.ts';
import { pixelsRepo, type PixelRow } from '../pixels/pixels.repo.ts';
import { plainRunMessage } from './run-message.ts';
import { tooLargeReason } from './remote-folder.ts';
import {
  connectionProblem,
  needsSecret,
  openSecret,
  presentConnection,
  requestSecret,
  sealedSecret,
  secretRequired,
  storedConnection,
} from './source-connection.ts';
import { nextFile, nothingThere } from './source-fetch.ts';
import { HostKeyChanged } from './sftp-folder.ts';
import { sourcesRepo, type SourceRow, type SourceRunRow } from './sources.repo.ts';
import { FetchFailure } from './url-fetch.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'config' | 'now'>;
const missing = () => notFound('Source not found.');
const PREVIEW_ROWS = 5;

export async function ownSource(deps: Deps, workspaceId: string, id: string): Promise<SourceRow> {
  const s = await sourcesRepo.find(deps.db, workspaceId, id);
  if (!s) throw missing();
  return s;
}

async function checkInput(deps: Deps, workspaceId: string, input: SourceInput) {
  if (!isTimeZone(input.timeZone))
    throw new AppError('VALIDATION_FAILED', `Unknown time zone "${input.timeZone}".`);
  if (!isTimeZone(input.settings.timeZone))
    throw new AppError('VALIDATION_FAILED', `Unknown time zone "${input.settings.timeZone}".`);
  const invalid = connectionProblem(input.connection);
  if (invalid) throw invalid;
  if (!(await pixelsRepo.find(deps.db, workspaceId, input.pixelAccountId)))
    throw new AppError('VALIDATION_FAILED', 'Please select or save an account first', {
      pixelAccountId: 'Please select or save an account first',
    });
  const problem = mappingProblem({ mappings: input.mappings, hardcoded: input.hardcodedValues });
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
}

function write(deps: Deps, workspaceId: string, id: string, input: SourceInput) {
  return {
    name: input.name,
    kind: input.connection.kind,
    connection: storedConnection(input.connection),
    sealed: sealedSecret(deps.config, input.connection, workspaceId, id),
    mappings: input.mappings,
    hardcodedValues: input.hardcodedValues,
    settings: { ...input.settings, defaultCountry: input.settings.defaultCountry.toUpperCase() },
    pixelAccountId: input.pixelAccountId,
    testEventCode: input.testEventCode?.trim() || null,
    schedule: input.schedule,
    timeZone: input.timeZone,
    errorThreshold: input.errorThreshold,
    nextRunAt: new Date(nextRunAt(input.schedule, input.timeZone, deps.now().getTime())),
  };
}

/** Sources one account may keep (issue 30): enough for an agency's clients, not a way to flood the scheduler. */
export const MAX_SOURCES_PER_WORKSPACE = 100;

export async function createSource(deps: Deps, workspaceId: string, input: SourceInput) {
  if ((await sourcesRepo.countForWorkspace(deps.db, workspaceId)) >= MAX_SOURCES_PER_WORKSPACE)
    throw new AppError(
      'CONFLICT',
      `You have ${MAX_SOURCES_PER_WORKSPACE} sources, the most one workspace can keep. Delete one you no longer use first.`,
    );
  await checkInput(deps, workspaceId, input);
  if (needsSecret(input.connection) && !input.connection.secret) throw secretRequired(input.connection);
  const id = randomUUID();
  await sourcesRepo.insert(deps.db, id, workspaceId, write(deps, workspaceId, id, input));
  return id;
}

export async function updateSource(deps: Deps, workspaceId: string, id: string, input: SourceInput) {
  const s = await ownSource(deps, workspaceId, id);
  await checkInput(deps, workspaceId, input);
  const w = write(deps, workspaceId, id, input);
  // A stored secret is kept only for the same kind and identity: an S3 key is no SFTP password, and a password
  // must not follow the source to another server without the owner typing it again.
  if (w.sealed === undefined && (!s.sealed || !sameSecretTarget(s.connection, input.connection)))
    throw secretRequired(input.connection, !!s.sealed && s.kind === input.connection.kind);
  await sourcesRepo.update(deps.db, id, workspaceId, w);
}

/**
 * Deletes the source with its runs. Its uploads stay on the dashboard unless the owner asked for them too; in
 * one transaction, so a failure keeps both.
 */
export async function deleteSource(deps: Deps, workspaceId: string, id: string, withUploads = false) {
  return deps.db.transaction(async (tx) => {
    if (!(await sourcesRepo.find(tx, workspaceId, id))) throw missing();
    const uploads = withUploads ? await sourcesRepo.deleteUploads(tx, workspaceId, id) : 0;
    await sourcesRepo.delete(tx, workspaceId, id);
    return uploads;
  });
}

/** The uploads the source's runs made, newest first, with their send outcome (the dashboard's group). */
export async function sourceUploads(
  deps: Deps,
  workspaceId: string,
  id: string,
  q: { limit: number; offset: number },
): Promise<UploadList> {
  await ownSource(deps, workspaceId, id);
  const { rows, total } = await filesRepo.listFromSource(deps.db, workspaceId, id, q.limit, q.offset);
  const outcomes = await deliveryOutcomes(
    deps.db,
    workspaceId,
    rows.map((r) => r.id),
  );
  return { uploads: rows.map((r) => ({ ...presentUpload(r), delivery: outcomes.get(r.id) ?? null })), total };
}

export async function pauseSource(deps: Deps, workspaceId: string, id: string) {
  if (!(await sourcesRepo.pause(deps.db, workspaceId, id, null))) throw missing();
}

export async function resumeSource(deps: Deps, workspaceId: string, id: string) {
  const s = await ownSource(deps, workspaceId, id);
  const next = new Date(nextRunAt(s.schedule, s.timeZone, deps.now().getTime()));
  await sourcesRepo.resume(deps.db, workspaceId, id, next);
}

/** "Run now": the next scheduler tick (within seconds) takes it, in whichever worker claims it first. */
export async function requestRun(deps: Deps, workspaceId: string, id: string) {
  if (!(await sourcesRepo.requestRun(deps.db, workspaceId, id, deps.now()))) throw missing();
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const presentRun = (r: SourceRunRow): SourceRunSummary => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  dueAt: iso(r.dueAt),
  startedAt: iso(r.startedAt)!,
  finishedAt: iso(r.finishedAt),
  uploadId: r.uploadId,
  rowsRead: r.rowsRead,
  rowsSkipped: r.rowsSkipped,
  sent: r.sent,
  failed: r.failed,
  alreadyDelivered: r.alreadyDelivered,
  message: plainRunMessage(r.message),
  itemName: r.itemName,
  skippedRows: r.skippedRows,
});

function present(
  s: SourceRow,
  accounts: Map<string, PixelRow>,
  last: SourceRunRow | undefined,
  uploadCount: number,
): SourceSummary {
  const a = s.pixelAccountId ? accounts.get(s.pixelAccountId) : undefined;
  return {
    id: s.id,
    name: s.name,
    kind: s.kind,
    schedule: s.schedule,
    scheduleText: describeSchedule(s.schedule),
    timeZone: s.timeZone,
    pixelAccount: a ? { id: a.id, name: a.name, pixelId: a.pixelId } : null,
    status: s.status,
    pauseReason: s.pauseReason,
    nextRunAt: s.status === 'active' ? iso(s.nextRunAt) : null,
    lastRun: last ? presentRun(last) : null,
    uploadCount,
  };
}

export async function listSources(deps: Deps, workspaceId: string): Promise<SourceSummary[]> {
  const [sources, accounts, last, uploads] = await Promise.all([
    sourcesRepo.list(deps.db, workspaceId),
    pixelsRepo.list(deps.db, workspaceId),
    sourcesRepo.lastRuns(deps.db, workspaceId),
    sourcesRepo.uploadCounts(deps.db, workspaceId),
  ]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return sources.map((s) => present(s, byId, last.get(s.id), uploads.get(s.id) ?? 0));
}

export async function sourceDetail(deps: Deps, workspaceId: string, id: string): Promise<SourceDetail> {
  const s = await ownSource(deps, workspaceId, id);
  const [accounts, runs, uploads] = await Promise.all([
    pixelsRepo.list(deps.db, workspaceId),
    sourcesRepo.runs(deps.db, id, 1),
    sourcesRepo.uploadCounts(deps.db, workspaceId),
  ]);
  return {
    ...present(s, new Map(accounts.map((a) => [a.id, a])), runs[0], uploads.get(id) ?? 0),
    connection: presentConnection(s),
    mappings: s.mappings,
    hardcodedValues: s.hardcodedValues,
    settings: s.settings,
    testEventCode: s.testEventCode,
    errorThreshold: s.errorThreshold,
  };
}

export async function sourceRuns(deps: Deps, workspaceId: string, id: string) {
  await ownSource(deps, workspaceId, id);
  return (await sourcesRepo.runs(deps.db, id, 50)).map(presentRun);
}

/**
 * "Test fetch": fetches the file as a run would and reads it as CSV, answering its columns and first rows,
 * or the exact reason it could not. Nothing is stored.
 */
export async function testFetch(
  deps: Deps,
  workspaceId: string,
  req: TestFetchRequest,
): Promise<TestFetchResponse> {
  const connection = storedConnection(req.connection);
  const saved = req.sourceId ? await ownSource(deps, workspaceId, req.sourceId) : null;
  // A saved source's stored secret serves when the form leaves it empty, for the same kind and identity only
  // (another host, endpoint or user would receive the stored secret).
  let secret = requestSecret(req.connection);
  if (!secret && saved && saved.kind === req.connection.kind && needsSecret(req.connection)) {
    if (saved.sealed && !sameSecretTarget(saved.connection, req.connection))
      throw secretRequired(req.connection, true);
    secret = openSecret(deps.config, saved);
  }
  const maxBytes = deps.config.maxUploadBytes;
  let hostKey: string | undefined;
  try {
    const next = await nextFile(deps, { sourceId: saved?.id ?? null, connection, secret }, 'preview');
    hostKey = next.hostKey;
    try {
      if (connection.kind !== 'csv_url' && !next.item)
        throw new FetchFailure(nothingThere(connection, false));
      if (next.item && next.item.size > maxBytes) throw new FetchFailure(tooLargeReason(next.item, maxBytes));
      const read = await readPreview(await next.read(), maxBytes);
      return {
        ok: true,
        ...read,
        ...(next.item && {
          item: {
            name: next.item.name,
            modifiedAt: iso(next.item.modifiedAt),
            waiting: next.waiting,
          },
        }),
        ...(hostKey && { hostKey }),
      };
    } finally {
      await next.close();
    }
  } catch (err) {
    // A changed SFTP host key: the new fingerprint goes back, for the owner to trust or not.
    if (err instanceof HostKeyChanged) hostKey = err.seen;
    if (err instanceof FetchFailure) return { ok: false, reason: err.message, ...(hostKey && { hostKey }) };
    throw err;
  }
}

/** Reads a whole file as CSV: its headers, first rows, row count and a few values per column. */
async function readPreview(body: AsyncIterable<Uint8Array>, maxBytes: number) {
  const reader = createCsvReader();
  let headers: string[] | null = null;
  const rows: string[][] = [];
  const samples: Record<string, string[]> = {};
  let rowCount = 0;
  let size = 0;
  const take = (items: ReturnType<typeof reader.push>) => {
    for (const item of items) {
      if (item.kind === 'fatal') throw new FetchFailure(item.message);
      if (item.kind === 'header') {
        headers = item.info.headers;
        for (const h of headers) samples[h] = [];
      } else if (item.kind === 'row') {
        rowCount++;
        if (rows.length < PREVIEW_ROWS) rows.push(item.values.map((v) => v.slice(0, 200)));
        item.values.forEach((v, i) => {
          const list = samples[headers![i]!];
          if (list && list.length < 3 && v.trim()) list.push(v.slice(0, 200));
        });
      }
    }
  };
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new FetchFailure(fileTooLargeMessage(maxBytes));
    take(reader.push(chunk));
  }
  take(reader.end());
  if (!headers) throw new FetchFailure('The file did not contain valid headers.');
  return { headers: headers as string[], rows, rowCount, sizeBytes: size, samples };
}
