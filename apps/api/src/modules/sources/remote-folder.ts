import { fileTooLargeMessage } from '../../lib/upload-limit.ts';
import { FetchFailure } from './url-fetch.ts';

/** A file on an SFTP server or an object in a bucket. */
export interface RemoteItem {
  /** What source_seen remembers: name, size and time (SFTP) or key and ETag (S3). */
  key: string;
  /** What the owner sees: the path in the folder, or the object key. */
  name: string;
  size: number;
  modifiedAt: Date | null;
}

/** A connected folder or bucket: its matching items, and each one's bytes. */
export interface RemoteFolder {
  list(): Promise<RemoteItem[]>;
  read(item: RemoteItem): Promise<AsyncIterable<Uint8Array>>;
  /** SFTP "move to processed/": the files already moved, for "Test fetch" when the folder itself is empty. */
  listProcessed?(): Promise<RemoteItem[]>;
  /** SFTP "move to processed/": after the run sent the file (or found nothing new in it). */
  moveProcessed?(item: RemoteItem): Promise<void>;
  close(): Promise<void>;
}

/** Oldest first (then by name): a backlog is sent in the order the files arrived. */
export const oldestFirst = (a: RemoteItem, b: RemoteItem) =>
  (a.modifiedAt?.getTime() ?? 0) - (b.modifiedAt?.getTime() ?? 0) || a.name.localeCompare(b.name);

export const tooLargeReason = (item: RemoteItem, maxBytes: number) =>
  `${item.name} is ${(item.size / 1024 / 1024).toFixed(1)}MB. ${fileTooLargeMessage(maxBytes)}`;

/**
 * Guards a body being read: more than `maxBytes` stops it (whatever the listing said), and so does
 * `timeoutMs` for the whole transfer (`abort` cuts the connection). `cleanup` runs however it ends.
 */
export async function* guardedBody(
  body: AsyncIterable<Uint8Array>,
  opts: { maxBytes: number; timeoutMs: number; abort: () => void; cleanup?: () => Promise<void> | void },
): AsyncGenerator<Uint8Array> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    opts.abort();
  }, opts.timeoutMs);
  timer.unref();
  let size = 0;
  try {
    for await (const chunk of body) {
      if (timedOut) break;
      size += chunk.byteLength;
      if (size > opts.maxBytes) throw new FetchFailure(fileTooLargeMessage(opts.maxBytes));
      yield chunk;
    }
    if (timedOut) throw timeoutFailure(opts.timeoutMs);
  } catch (err) {
    if (timedOut) throw timeoutFailure(opts.timeoutMs);
    if (err instanceof FetchFailure) throw err;
    throw new FetchFailure(`The file could not be read to its end (${(err as Error).message}).`);
  } finally {
    clearTimeout(timer);
    await opts.cleanup?.();
  }
}

export const timeoutFailure = (ms: number) =>
  new FetchFailure(`The server did not send the whole file within ${Math.round(ms / 1000)} seconds.`);
