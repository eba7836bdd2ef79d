import { hash } from 'node:crypto';
import { DEFAULT_FILE_SETTINGS, type FileSettings } from '@backsignal/core';
import type { Queryable } from '../../db/db.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';
import { readUploadBytes } from './file-store.ts';
import type { UploadRow } from './files.repo.ts';
import type { PipelineInput, PipelineMessage, PipelineMode, PipelineSummary, PreparedEvent, ReportRow } from './pipeline-types.ts';

const WORKER_URL = new URL('./pipeline.worker.ts', import.meta.url);

/** The file's settings as the user chose them; each date column's own detected order is passed separately. */
export function effectiveSettings(upload: UploadRow): FileSettings {
  return { ...DEFAULT_FILE_SETTINGS, ...(upload.settings ?? {}) };
}

/** Identifies the file content plus everything that shapes validation; 'validated' must match a clean run. */
export function fingerprint(upload: UploadRow): string {
  return hash('sha256', JSON.stringify([upload.fileVersion, upload.mappings, upload.hardcodedValues, upload.settings]), 'hex');
}

type ItemOf<M extends PipelineMode> = M extends 'events' ? PreparedEvent : M extends 'report' ? ReportRow : never;

/**
 * Streams an upload through core in a worker thread. `onItems` receives rows as they are produced (problem
 * rows for 'report', prepared events for 'events') and may be async: the next chunk is sent only after it
 * returns, so memory stays flat whatever the file size.
 */
export async function runPipeline<M extends PipelineMode>(
  db: Queryable,
  upload: UploadRow,
  opts: { mode: M; now: Date; previewLimit?: number },
  onItems?: (items: ItemOf<M>[]) => Promise<void> | void,
): Promise<PipelineSummary> {
  const input: PipelineInput = {
    mode: opts.mode,
    previewLimit: opts.previewLimit ?? 10,
    ctx: {
      mappings: upload.mappings,
      hardcoded: upload.hardcodedValues,
      settings: effectiveSettings(upload),
      dateOrders: upload.dateOrders,
      now: Math.floor(opts.now.getTime() / 1000),
    },
  };
  const worker = startTsWorker(WORKER_URL, input);
  let pending: { resolve: (m: PipelineMessage) => void; reject: (e: unknown) => void } | null = null;
  const queue: PipelineMessage[] = [];
  let failure: unknown = null;
  worker.on('message', (m: PipelineMessage) => (pending ? (pending.resolve(m), (pending = null)) : queue.push(m)));
  worker.on('error', (err) => {
    failure = err;
    pending?.reject(err);
  });
  const next = () =>
    queue.length ? Promise.resolve(queue.shift()!) : failure ? Promise.reject(failure) : new Promise<PipelineMessage>((resolve, reject) => (pending = { resolve, reject }));

  try {
    for await (const chunk of readUploadBytes(db, upload.id)) {
      worker.postMessage({ type: 'chunk', data: chunk });
      const m = await next();
      if (m.type === 'items') {
        if (m.items.length && onItems) await onItems(m.items as ItemOf<M>[]);
        if (m.stopped) break;
      }
    }
    worker.postMessage({ type: 'end' });
    for (;;) {
      const m = await next();
      if (m.type === 'done') return m.summary;
      if (m.items.length && onItems) await onItems(m.items as ItemOf<M>[]);
    }
  } finally {
    void worker.terminate();
  }
}
