import type { EncodedEvent } from '@backsignal/core';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { filesRepo, type UploadRow } from '../files/files.repo.ts';
import { runPipeline } from '../files/pipeline.ts';
import type { PreparedEvent } from '../files/pipeline-types.ts';
import { getAccountWithToken, markReconnectNeeded } from '../pixels/pixels.service.ts';
import { RunFailure, type DeliverySource } from './delivery.engine.ts';
import { readTime, type RunRow } from './delivery.repo.ts';

const CANCELLED = new Error('cancelled');

/**
 * The workflow pipeline pushes chunks of prepared events; the engine pulls. The next chunk is produced only
 * once the engine has taken the last one, so memory stays flat; stopping early ends the pipeline. `withValues`
 * adds each row's cells (the failed-rows downloads).
 */
export async function* preparedEvents(
  db: Db,
  upload: UploadRow,
  now: Date,
  withValues = false,
): AsyncGenerator<PreparedEvent> {
  let chunk: PreparedEvent[] | null = null;
  let wake: (() => void) | null = null;
  let taken: (() => void) | null = null;
  let done = false;
  let cancelled = false;
  let failure: unknown = null;
  const finished = runPipeline(
    db,
    upload,
    // Without the cells, the events come as bytes (packed-events.ts): the send never builds their JSON as text.
    { mode: 'events', now, previewLimit: 0, withValues, packed: !withValues },
    async (items) => {
      if (cancelled) throw CANCELLED;
      chunk = items;
      wake?.();
      await new Promise<void>((r) => (taken = r));
      if (cancelled) throw CANCELLED;
    },
  )
    .then(
      (summary) => {
        // The pipeline refused the file (e.g. its headers no longer match the mapping): no retry can fix that.
        if (summary.error)
          failure = new RunFailure(`The file could not be read for sending: ${summary.error}`);
      },
      (err: unknown) => {
        if (err !== CANCELLED) failure = err;
      },
    )
    .finally(() => {
      done = true;
      wake?.();
    });
  try {
    for (;;) {
      if (!chunk && !done) await new Promise<void>((r) => (wake = r));
      wake = null;
      if (chunk) {
        const items: PreparedEvent[] = chunk;
        chunk = null;
        yield* items;
        const next = taken as (() => void) | null;
        taken = null;
        next?.();
        continue;
      }
      if (failure) throw failure;
      return;
    }
  } finally {
    cancelled = true;
    (taken as (() => void) | null)?.();
    await finished;
  }
}

/** The engine's view of the app: the run's file through the workflow pipeline, the account's token. */
export function appDeliverySource(db: Db, config: Config): DeliverySource {
  return {
    async *events(run: RunRow): AsyncGenerator<{ rowNumber: number; event: EncodedEvent }> {
      const upload = await filesRepo.findInWorkspace(db, run.workspace_id, run.upload_id);
      if (!upload)
        throw new RunFailure('The uploaded file is no longer available, so the send could not continue.');
      // The run's own time, not the clock: a resumed run must cut exactly the same batches, and a retry read the
      // same events as the run it retries.
      yield* preparedEvents(db, upload, readTime(run));
    },
    async credentials(run: RunRow) {
      if (!run.pixel_account_id) return null;
      const account = await getAccountWithToken(db, config, run.workspace_id, run.pixel_account_id).catch(
        (err) => {
          throw err instanceof AppError ? new RunFailure(err.message) : err;
        },
      );
      return account ? { pixelId: run.pixel_id, accessToken: account.accessToken } : null;
    },
    async markReconnectNeeded(run: RunRow) {
      if (run.pixel_account_id) await markReconnectNeeded(db, run.pixel_account_id);
    },
  };
}
