import { hash } from 'node:crypto';
import { DEFAULT_FILE_SETTINGS, type FileSettings, type RefundChoice } from '@backsignal/core';
import type { Queryable } from '../../db/db.ts';
import { readUploadBytes } from './file-store.ts';
import { unpackEvents } from './packed-events.ts';
import { pipelinePools, type PipelineLane } from './pipeline-pool.ts';
import type { UploadRow } from './files.repo.ts';
import type {
  PipelineInput,
  PipelineMessage,
  PipelineMode,
  PipelineRequest,
  PipelineSummary,
  PreparedEvent,
  ReportRow,
} from './pipeline-types.ts';

/** The file's settings as the user chose them; each date column's own detected order is passed separately. */
export function effectiveSettings(upload: UploadRow): FileSettings {
  return { ...DEFAULT_FILE_SETTINGS, ...(upload.settings ?? {}) };
}

/** Identifies the file content plus everything that shapes validation; 'validated' must match a clean run. */
export function fingerprint(upload: UploadRow): string {
  return hash(
    'sha256',
    JSON.stringify([upload.fileVersion, upload.mappings, upload.hardcodedValues, upload.settings]),
    'hex',
  );
}

/**
 * The user's choice for the file's refund rows (negative Purchase values), in force only for the content and
 * mapping it was made for: anything else asks again (docs/decisions/0098).
 */
export function refundChoice(upload: UploadRow): RefundChoice {
  return upload.refundChoice && upload.refundFingerprint === fingerprint(upload)
    ? upload.refundChoice
    : 'ask';
}

/**
 * What a job's result depends on: a validation on the file and mapping (the refund choice is made after it and
 * read when presented, like skipping rows with errors); a prepare also on the refund choice, since its total
 * leaves skipped refunds out.
 */
export function jobFingerprint(upload: UploadRow, kind: 'validate' | 'prepare'): string {
  const fp = fingerprint(upload);
  return kind === 'prepare' ? hash('sha256', `${fp} refunds:${refundChoice(upload)}`, 'hex') : fp;
}

/** Chunks posted to the worker and not yet answered: enough to keep it busy, few enough to bound memory. */
const CHUNKS_IN_FLIGHT = 3;

type ItemOf<M extends PipelineMode> = M extends 'events'
  ? PreparedEvent
  : M extends 'report'
    ? ReportRow
    : never;

/**
 * Streams an upload through core in a pooled worker thread: per lane at most min(2, cores) files are read at
 * once and later calls queue ('requests' for the API's own calls, 'background' by default, for delivery).
 * `onItems` receives rows as they are produced (problem rows for 'report', prepared events for 'events') and
 * may be async: the next chunk is sent only after it returns, so memory stays flat whatever the file size.
 * `stopAfterEvents` ends an 'events' run early (previews). `onProgress` hears the rows read so far: 0 once a worker
 * is free (the pass has started), then after each chunk.
 */
export async function runPipeline<M extends PipelineMode>(
  db: Queryable,
  upload: UploadRow,
  opts: {
    mode: M;
    now: Date;
    previewLimit?: number;
    stopAfterEvents?: number;
    withNormalized?: boolean;
    withValues?: boolean;
    packed?: boolean;
    lane?: PipelineLane;
    onProgress?: (rowsDone: number) => void;
  },
  onItems?: (items: ItemOf<M>[]) => Promise<void> | void,
): Promise<PipelineSummary> {
  const input: PipelineInput = {
    mode: opts.mode,
    previewLimit: opts.previewLimit ?? 10,
    ...(opts.stopAfterEvents ? { stopAfterEvents: opts.stopAfterEvents } : {}),
    ...(opts.withNormalized ? { withNormalized: true } : {}),
    ...(opts.withValues ? { withValues: true } : {}),
    ...(opts.packed ? { packed: true } : {}),
    refunds: refundChoice(upload),
    ctx: {
      mappings: upload.mappings,
      hardcoded: upload.hardcodedValues,
      settings: effectiveSettings(upload),
      dateOrders: upload.dateOrders,
      decimalSeparators: upload.decimalSeparators,
      now: Math.floor(opts.now.getTime() / 1000),
    },
  };
  const pool = pipelinePools[opts.lane ?? 'background'];
  const worker = await pool.acquire();
  // Reusable only when the job ran to its 'done' (no answer left in flight, no crash).
  let finished = false;
  let pending: { resolve: (m: PipelineMessage) => void; reject: (e: unknown) => void } | null = null;
  const queue: PipelineMessage[] = [];
  let failure: unknown = null;
  let bytesRead = 0;
  const onMessage = (m: PipelineMessage) =>
    pending ? (pending.resolve(m), (pending = null)) : queue.push(m);
  const onError = (err: unknown) => {
    failure = err;
    pending?.reject(err);
  };
  worker.on('message', onMessage);
  worker.on('error', onError);
  const next = () =>
    queue.length
      ? Promise.resolve(queue.shift()!)
      : failure
        ? Promise.reject(failure)
        : new Promise<PipelineMessage>((resolve, reject) => (pending = { resolve, reject }));
  const send = (msg: PipelineRequest) => worker.postMessage(msg);
  const deliver = async (m: Extract<PipelineMessage, { type: 'items' }>) => {
    const items = m.packed ? unpackEvents(m.packed) : m.items;
    if (items.length && onItems) await onItems(items as ItemOf<M>[]);
  };

  try {
    opts.onProgress?.(0);
    send({ type: 'start', input });
    // The worker parses while this thread reads the next chunks: up to CHUNKS_IN_FLIGHT are posted and not yet
    // answered, and the next read starts before the answer is awaited (it answers each chunk once, in order).
    const chunks = readUploadBytes(db, upload.id)[Symbol.asyncIterator]();
    const read = () => {
      const r = chunks.next();
      r.catch(() => {}); // awaited below; not an unhandled rejection while an answer is awaited first
      return r;
    };
    let ahead = read();
    let unanswered = 0;
    let stopped = false;
    while (!stopped) {
      const r = await ahead;
      if (r.done) break;
      bytesRead += r.value.length;
      send({ type: 'chunk', data: r.value });
      unanswered++;
      ahead = read();
      while (unanswered >= CHUNKS_IN_FLIGHT && !stopped) {
        const m = await next();
        unanswered--;
        if (m.type === 'items') {
          opts.onProgress?.(m.rows);
          await deliver(m);
          stopped = m.stopped;
        }
      }
    }
    if (stopped) await chunks.return?.(undefined);
    // Answers still owed come before 'done' and are read by the loop below.
    send({ type: 'end' });
    for (;;) {
      const m = await next();
      if (m.type === 'done') {
        finished = true;
        return m.summary;
      }
      opts.onProgress?.(m.rows);
      await deliver(m);
    }
  } finally {
    worker.off('message', onMessage);
    worker.off('error', onError);
    pool.release(worker, finished && !failure, bytesRead);
  }
}
