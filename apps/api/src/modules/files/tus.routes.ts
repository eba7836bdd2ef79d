import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_DOCS_PATH,
  TUS_UPLOADS_PATH,
  V1_TUS_UPLOADS_PATH,
  TusUploadState,
  type UploadResponse,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError } from '../../errors/app-error.ts';
import { isApiV1, v1Error } from '../../errors/v1-error.ts';
import { perUserLimit } from '../../lib/per-user-limit.ts';
import { actingUserId, needScope } from '../../plugins/api-key-auth.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import { checkQuota } from '../usage/quota.service.ts';
import { acceptsAsCsv, storedFileName } from './files.routes.ts';
import { presentUpload } from './files.presenter.ts';
import * as files from './files.service.ts';
import { TUS_ID, tusDirectory, tusUploads, UPLOAD_NOT_FOUND, type TusCaller } from './tus-uploads.ts';

const Id = z.object({ id: z.string().regex(TUS_ID, UPLOAD_NOT_FOUND) });

interface Caller extends TusCaller {
  request: FastifyRequest;
}

export type TusService = ReturnType<typeof tusService>;

/**
 * The app's one tus server (decision 0120), shared by the web app's routes and the v1 API's: a finished file is
 * read by the same ingest as POST /api/upload, and errors answer in the shape of the API the caller used.
 */
export function tusService(deps: ResolvedDeps, log: FastifyBaseLogger) {
  const { db, config } = deps;
  return tusUploads<Caller>({
    directory: tusDirectory(config.dataDir),
    maxBytes: config.maxUploadBytes,
    log,
    accept: (name, type) => {
      if (!acceptsAsCsv('upload', name, type))
        throw new AppError('VALIDATION_FAILED', 'Invalid file type. Please upload a CSV file.');
      return storedFileName(name);
    },
    present: (caller, error) =>
      JSON.stringify(
        caller && isApiV1(caller.request)
          ? v1Error(error, caller.request.id, config.appUrl + API_DOCS_PATH)
          : { ...error, ...(caller ? { requestId: caller.request.id } : {}) },
      ),
    read: async (caller, fileName, bytes): Promise<UploadResponse> => {
      const limits = { maxBytes: config.maxUploadBytes, quotas: config.quotas, now: deps.now() };
      const { file, ingest } = await files.createUpload(db, caller.workspaceId, fileName, bytes, limits);
      caller.request.log.info(
        { uploadId: file.id, bytes: file.sizeBytes, rows: file.rowCount },
        'file uploaded (tus)',
      );
      await logActivity(db, caller.request, 'file.uploaded', file.fileName, { rows: file.rowCount });
      return {
        file: presentUpload(file),
        headers: ingest.headers,
        issues: ingest.issues,
        message: `Uploaded: ${file.fileName}`,
      };
    },
  });
}

/**
 * Mounts tus at `path`: POST creates, HEAD tells the offset, PATCH appends, DELETE cancels, all handed to
 * @tus/server after the route's guard (and the XSRF check every unsafe method of a session has); once the last
 * byte is in, GET tells when the file has been read into an ordinary upload.
 */
function mountTus(
  instance: FastifyInstance,
  deps: ResolvedDeps,
  uploads: TusService,
  path: string,
  guard: { preValidation?: preValidationAsyncHookHandler; onRequest?: onRequestAsyncHookHandler },
  createLimit: object,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // The bytes stay unread until @tus/server streams them to disk.
  instance.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const callerOf = (request: FastifyRequest): Caller => ({
    request,
    workspaceId: currentWorkspace(request).id,
    userId: actingUserId(request),
  });
  const hand = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await uploads.handle(request.raw, reply.raw, callerOf(request));
  };
  // An upload another workspace made, or none, is a 404 whichever method asks (tus-uploads.ts checks).
  const known = async (request: FastifyRequest) => {
    if (!uploads.exists((request.params as z.infer<typeof Id>).id))
      throw new AppError('NOT_FOUND', UPLOAD_NOT_FOUND);
  };

  app.post(path, { ...guard, config: { ...createLimit, uploadBody: true } }, async (request, reply) => {
    if (!/^\d+$/.test(String(request.headers['upload-length'] ?? '')))
      throw new AppError('VALIDATION_FAILED', 'The upload must give its size (Upload-Length).');
    // As the single upload: refused while the day's quota has not a byte left.
    await checkQuota(deps.db, {
      quotas: deps.config.quotas,
      workspaceId: currentWorkspace(request).id,
      action: 'upload',
      amount: 1,
      now: deps.now(),
    });
    await hand(request, reply);
  });
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: `${path}/:id`,
      schema: { params: Id },
      ...guard,
      preHandler: known,
      config: { uploadBody: true },
      handler: hand,
    });
  }
  app.get(
    `${path}/:id`,
    { ...guard, schema: { params: Id, response: { 200: TusUploadState, 202: TusUploadState } } },
    async (request, reply): Promise<TusUploadState> => {
      const state = await uploads.state(callerOf(request), request.params.id);
      if (state.state === 'reading') reply.status(202);
      return state;
    },
  );
}

/** The web app's resumable uploads: a session with the member role, the per-user upload limit on creation. */
export const tusRoutes =
  (deps: ResolvedDeps, uploads: TusService): FastifyPluginAsync =>
  async (instance) => {
    mountTus(
      instance,
      deps,
      uploads,
      TUS_UPLOADS_PATH,
      { preValidation: roleGuard(deps.db)('member') },
      perUserLimit(30),
    );
  };

/** The same uploads in the v1 scope (decision 0113): an API key of the send scope, the key's own rate limit. */
export const v1TusRoutes =
  (uploads: TusService) =>
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    mountTus(instance, deps, uploads, V1_TUS_UPLOADS_PATH, { onRequest: needScope('send') }, {});
  };
