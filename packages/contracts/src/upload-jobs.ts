import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';
import { PrepareResponse, ValidationResponse } from './workflow.ts';

/**
 * Validation and prepare of a file as background jobs (docs/decisions/0091): started by a short POST, read by a
 * short GET while the page shows how far the pass has come. One job per upload and kind at a time.
 */
export const UPLOAD_JOB_KINDS = ['validate', 'prepare'] as const;
export const UploadJobKind = z.enum(UPLOAD_JOB_KINDS);
export type UploadJobKind = z.infer<typeof UploadJobKind>;

/** The path of the job routes: /api/uploads/{id}/jobs/{kind}. */
export const UploadJobParams = z.object({ id: z.string().max(64), kind: UploadJobKind });
export type UploadJobParams = z.infer<typeof UploadJobParams>;

/**
 * 'queued': waiting for a free pipeline worker; 'reading': rows are being checked (rowsDone moves);
 * 'finishing': the pass is read, its outcome is being saved; 'finished': done or failed.
 */
export const UploadJobStage = z.enum(['queued', 'reading', 'finishing', 'finished']);
export type UploadJobStage = z.infer<typeof UploadJobStage>;

/** Why a job failed: the same code and message the old one-request route answered with. */
export const UploadJobError = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** A daily limit: seconds until a new run can succeed. */
  retryAfterSeconds: z.number().optional(),
});
export type UploadJobError = z.infer<typeof UploadJobError>;

const JobFields = {
  id: z.string(),
  uploadId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  stage: UploadJobStage,
  /** Rows read so far, of the file's row count; written by the worker about once a second. */
  rowsDone: z.number(),
  rowsTotal: z.number(),
  /** The file's content or mapping changed since the job ran: its result is not the file's any more. */
  stale: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: UploadJobError.nullable(),
};

export const UploadJob = z.discriminatedUnion('kind', [
  z.object({ ...JobFields, kind: z.literal('validate'), result: ValidationResponse.nullable() }),
  z.object({ ...JobFields, kind: z.literal('prepare'), result: PrepareResponse.nullable() }),
]);
export type UploadJob = z.infer<typeof UploadJob>;
export type ValidateJob = Extract<UploadJob, { kind: 'validate' }>;
export type PrepareJob = Extract<UploadJob, { kind: 'prepare' }>;

/** POST: the job started (202), or the one already running for the same file and mapping. */
export const UploadJobResponse = z.object({ job: UploadJob });
export type UploadJobResponse = z.infer<typeof UploadJobResponse>;

/** GET of an upload's job of a kind: null when none has run yet (the page then starts one). */
export const UploadJobLookup = z.object({ job: UploadJob.nullable() });
export type UploadJobLookup = z.infer<typeof UploadJobLookup>;
