import type {
  PrepareResponse,
  UploadJob,
  UploadJobKind,
  UploadJobLookup,
  UploadJobResponse,
  ValidationResponse,
} from '@backsignal/contracts';
import { api, ApiError } from '../../lib/api.ts';

/** How far a running job has come, for the progress bar. */
export type JobProgress = Pick<UploadJob, 'kind' | 'stage' | 'rowsDone' | 'rowsTotal'>;

type ResultOf<K extends UploadJobKind> = K extends 'validate' ? ValidationResponse : PrepareResponse;

/** Polled quickly at first (most files are done in a moment), then about as often as the server writes progress. */
const pollDelay = (elapsedMs: number) => (elapsedMs < 3000 ? 300 : 1000);

/** HTTP status the old one-request route would have answered a job's error with (for code that reads it). */
const STATUS: Record<string, number> = {
  RATE_LIMITED: 429,
  INVALID_STATE: 409,
  CONFLICT: 409,
  NOT_FOUND: 404,
};

const url = (fileId: string, kind: UploadJobKind) => `/api/uploads/${fileId}/jobs/${kind}`;

/** A finished result this recent, for the file as it is now, is shown again instead of running the pass again. */
export const REUSE_RESULT_MS = 10 * 60_000;

/** The job's own result can stand for a new run: the file and mapping it ran on, finished moments ago. */
const reusable = (job: UploadJob, now: number) =>
  job.status === 'done' &&
  !job.stale &&
  !!job.finishedAt &&
  now - new Date(job.finishedAt).getTime() < REUSE_RESULT_MS;

/**
 * Runs a validation or prepare of the file as a background job and follows it to its result
 * (docs/decisions/0091). A page opened again (a reload, a return) finds the file's job: one still running is
 * followed, one that just finished is shown; otherwise a POST starts one (it answers at once, with the job
 * already running if another tab started it). A failed job throws its error as the old route did.
 */
export async function runUploadJob<K extends UploadJobKind>(
  fileId: string,
  kind: K,
  onProgress: (p: JobProgress) => void = () => {},
): Promise<ResultOf<K>> {
  const started = Date.now();
  const found = (await api<UploadJobLookup>(url(fileId, kind))).job;
  let job: UploadJob =
    found && ((found.status === 'running' && !found.stale) || reusable(found, started))
      ? found
      : (await api<UploadJobResponse>(url(fileId, kind), { method: 'POST' })).job;
  for (;;) {
    onProgress(job);
    if (job.status === 'done') return job.result as ResultOf<K>;
    if (job.status === 'failed') {
      const e = job.error ?? { code: 'INTERNAL', message: '' };
      throw new ApiError(STATUS[e.code] ?? 500, e.code, e.message);
    }
    await new Promise((r) => setTimeout(r, pollDelay(Date.now() - started)));
    const next = (await api<UploadJobLookup>(url(fileId, kind))).job;
    // Replaced by a newer job (the file or its mapping changed in another tab): this result will not come.
    if (!next || next.id !== job.id)
      throw new ApiError(409, 'CONFLICT', 'The file changed while it was being checked. Please try again.');
    job = next;
  }
}
