import type { ResolvedDeps } from '../../deps.ts';
import type { Config } from '../../config/env.ts';
import { FETCH_TIMEOUT_MS, openUrlFile, type SourceSecrets } from './source-connection.ts';
import { oldestFirst, type RemoteFolder, type RemoteItem } from './remote-folder.ts';
import { s3Folder } from './s3-folder.ts';
import { folderName, parseSftpSecret, sftpFolder } from './sftp-folder.ts';
import { sourcesRepo, type StoredConnection } from './sources.repo.ts';
import { sourceAddressRule } from './ssrf.ts';

export interface FetchTarget {
  /** The saved source (its processed items are skipped), or null for a connection not saved yet. */
  sourceId: string | null;
  connection: StoredConnection;
  /** The secrets as openSecrets answers them. */
  secrets: SourceSecrets;
}

/** What a run or "Test fetch" reads next. */
export interface NextFile {
  /** SFTP and S3: the file or object; null for a CSV URL, and when a folder or bucket has nothing new. */
  item: RemoteItem | null;
  /** Items not processed yet, this one included (1 for a CSV URL). */
  waiting: number;
  /** Matching items in the folder or bucket, processed or not. */
  total: number;
  /** SFTP: the server's host key fingerprint. */
  hostKey?: string;
  /** Opens the file's bytes. Throws FetchFailure with the owner's words. */
  read(): Promise<AsyncIterable<Uint8Array>>;
  /** Ends the connection; call it once the body was read (or not needed). */
  close(): Promise<void>;
}

/**
 * The SSRF rule and limits every kind shares: private addresses only when SOURCES_ALLOW_NETWORKS lists them,
 * plain HTTP only outside production.
 */
export const remoteOptions = (config: Config) => ({
  blockPrivate: true,
  isBlocked: sourceAddressRule(config.sourcesAllowNetworks),
  allowHttp: !config.isProduction,
  timeoutMs: FETCH_TIMEOUT_MS,
  maxBytes: config.maxUploadBytes,
});

async function openFolder(config: Config, t: FetchTarget): Promise<RemoteFolder & { hostKey?: string }> {
  const c = t.connection;
  if (c.kind === 's3') return s3Folder(c, t.secrets.secret ?? '', remoteOptions(config));
  if (c.kind === 'sftp') return sftpFolder(c, parseSftpSecret(t.secrets.secret), remoteOptions(config));
  throw new Error(`not a folder kind: ${c.kind}`);
}

/** SFTP "move to processed/": a new connection once the run is over (a send can outlast an idle SSH session). */
export async function moveProcessed(config: Config, t: FetchTarget, item: RemoteItem) {
  const folder = await openFolder(config, t);
  try {
    await folder.moveProcessed?.(item);
  } finally {
    await folder.close();
  }
}

const noop = async () => {};

/**
 * Lists the folder or bucket and picks the oldest item this source has not processed yet. `preview` ("Test
 * fetch") shows the newest item when every one was processed, so the owner still sees the columns.
 */
export async function nextFile(
  deps: Pick<ResolvedDeps, 'db' | 'config'>,
  t: FetchTarget,
  mode: 'run' | 'preview',
): Promise<NextFile> {
  const c = t.connection;
  if (c.kind === 'csv_url') {
    return {
      item: null,
      waiting: 1,
      total: 1,
      read: async () => (await openUrlFile(deps.config, c, t.secrets)).body,
      close: noop,
    };
  }
  const folder = await openFolder(deps.config, t);
  try {
    const items = (await folder.list()).sort(oldestFirst);
    const seen = t.sourceId
      ? await sourcesRepo.seenKeys(
          deps.db,
          t.sourceId,
          items.map((i) => i.key),
        )
      : new Set<string>();
    const fresh = items.filter((i) => !seen.has(i.key));
    let item = fresh[0] ?? (mode === 'preview' ? items.at(-1) : undefined) ?? null;
    // A "move to processed/" folder is empty once everything was sent: the owner still sees the columns.
    if (!item && mode === 'preview' && folder.listProcessed)
      item = (await folder.listProcessed()).sort(oldestFirst).at(-1) ?? null;
    return {
      item,
      waiting: fresh.length,
      total: items.length,
      hostKey: folder.hostKey,
      read: () => folder.read(item!),
      close: () => folder.close(),
    };
  } catch (err) {
    await folder.close();
    throw err;
  }
}

/** "No file matches" in the kind's words. */
export function nothingThere(c: StoredConnection, processedAll: boolean): string {
  if (c.kind === 's3') {
    const where = c.prefix ? ` under "${c.prefix}"` : '';
    return processedAll
      ? `Every object in the bucket${where} was already sent.`
      : `The bucket "${c.bucket}" has no object${where}.`;
  }
  if (c.kind === 'sftp')
    return processedAll
      ? `Every file matching ${c.pattern} in ${folderName(c)} was already sent.`
      : `No file in ${folderName(c)} matches ${c.pattern}${c.afterProcessing === 'move' ? ' (files already sent are in processed/)' : ''}.`;
  return 'The file has no rows.';
}
