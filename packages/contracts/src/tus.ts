import { z } from 'zod';
import { UploadResponse } from './workflow.ts';

/** Where resumable (tus) uploads are created; each upload's own address is this path plus its id (decision 0120). */
export const TUS_UPLOADS_PATH = '/api/uploads/tus';
/** The same uploads for programs with an API key of the send scope (`Authorization: Bearer`, no cookie). */
export const V1_TUS_UPLOADS_PATH = '/api/v1/uploads/tus';

/**
 * A tus upload's bytes go up in PATCHes of at most this size. Behind a proxy that ends any request after 60 s,
 * one chunk must arrive well within that on a slow uplink: 5 MiB takes ~42 s at 1 Mbit/s; a 300 MB file
 * (about 3M rows) is ~60 requests, so a cut connection loses at most one chunk's time (decision 0120).
 */
export const TUS_CHUNK_BYTES = 5 * 1024 * 1024;

/**
 * GET /api/uploads/tus/:id once its last byte arrived: the file is read into an upload (the same ingest as
 * POST /api/upload) after the last PATCH has been answered, so a large file's reading never counts against a
 * proxy's request limit. 202 while it is read; 200 with the upload; a refused file answers its error.
 */
export const TusUploadState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('reading') }),
  z.object({ state: z.literal('done'), upload: UploadResponse }),
]);
export type TusUploadState = z.infer<typeof TusUploadState>;
