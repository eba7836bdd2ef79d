import { randomUUID } from 'node:crypto';
import {
  type SourceDetail,
  type SourceInput,
  type SourceRunSummary,
  type SourceSummary,
  type TestFetchRequest,
  type TestFetchResponse,
  type UploadList,
  splitUrlSecrets,
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
  openSecrets,
  presentConnection,
  realUrl,
  resolveConnection,
  sealSecrets,
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

/**
 * The row to write. Its secrets are those the input carries, else the saved source's towards the same place only
 * (another host, path or user would receive them without the owner typing them again): all sealed in one envelope.
 */
function write(deps: Deps, workspaceId: string, id: string, input: SourceInput, saved: SourceRow | null) {
  const { connection, secrets } = resolveConnection(deps.config, input.connection, saved, 'save');
  return {
    name: input.name,
    kind: input.connection.kind,
    connection,
    sealed: sealSecrets(deps.config, secrets, workspaceId, id),
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
  const id = randomUUID();
  await sourcesRepo.insert(deps.db, id, workspaceId, write(deps, workspaceId, id, input, null));
  return id;
}

export async function updateSource(deps: Deps, workspaceId: string, id: string, input: SourceInput) {
  const s = await ownSource(deps, workspaceId, id);
  await checkInput(deps, workspaceId, input);
  await sourcesRepo.update(deps.db, id, workspaceId, write(deps, workspaceId, id, input, s));
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
export async function requestRun(deps: Deps, workspaceId: string, id: string, userId: string) {
  if (!(await sourcesRepo.requestRun(deps.db, workspaceId, id, deps.now(), userId))) throw missing();
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
  const saved = req.sourceId ? await ownSource(deps, workspaceId, req.sourceId) : null;
  // A saved source's stored secrets serve what the form leaves empty or masked, for the same kind and place only
  // (another host, path, endpoint or user would receive them).
  const { connection, secrets } = resolveConnection(deps.config, req.connection, saved, 'fetch');
  const maxBytes = deps.config.maxUploadBytes;
  let hostKey: string | undefined;
  try {
    const next = await nextFile(deps, { sourceId: saved?.id ?? null, connection, secrets }, 'preview');
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

/**
 * Seals the secret query values CSV URL sources stored plain before decision 0102, at start-up: the URL keeps
 * them masked, the envelope holds them with the header token or password the row had. A row whose secret does
 * not open, or that changed meanwhile, is left as it was (its runs go on as before). Answers how many were sealed.
 */
export async function sealLegacyUrlSecrets(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  let sealed = 0;
  for (const s of await sourcesRepo.csvUrlsWithQuery(deps.db)) {
    if (s.connection.kind !== 'csv_url') continue;
    if (!splitUrlSecrets(s.connection.url).params.some((p) => p.value !== null)) continue;
    try {
      const secrets = openSecrets(deps.config, s);
      const full = realUrl(s.connection.url, secrets);
      if (full.missing.length) continue;
      const { url, params } = splitUrlSecrets(full.url);
      const query = params.map((p) => ({ name: p.name, value: p.value! }));
      const envelope = sealSecrets(deps.config, { secret: secrets.secret, query }, s.workspaceId, s.id);
      if (await sourcesRepo.sealUrl(deps.db, s, { ...s.connection, url }, envelope)) sealed++;
    } catch (err) {
      console.warn(
        'source: sealing the values of its URL failed; it keeps them',
        s.id,
        (err as Error).message,
      );
    }
  }
  return sealed;
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
