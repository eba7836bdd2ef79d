import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_DOCS_PATH,
  TUS_UPLOADS_PATH,
  V1_TUS_UPLOADS_PATH,
  type TusUploadState,
  type UploadResponse,
} from '@backsignal/contracts';
import type { onRequestAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
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

/**
 * Resumable uploads (tus 1.0, decision 0120): POST creates, HEAD tells the offset, PATCH appends, DELETE cancels,
 * all handed to @tus/server after the app's guards; once the last byte is in, GET tells when the file has been
 * read into an ordinary upload. Mounted for the web app's sessions and, under /api/v1, for API keys.
 */
export const tusRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config: config } = deps;
    const need = roleGuard(db);
    // The bytes stay unread until @tus/server streams them to disk.
    instance.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null),
    );

    const uploads = tusUploads<Caller>({
      directory: tusDirectory(config.dataDir),
      maxBytes: config.maxUploadBytes,
      log: instance.log,
      accept: (name, type) => {
        if (!acceptsAsCsv('upload', name, type))
          throw new AppError('VALIDATION_FAILED', 'Invalid file type. Please upload a CSV file.');
        return storedFileName(name);
      },
      // The same error shapes as the rest of the API: v1's (with the docs link) for API keys.
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
    /**
     * One set of routes per way in: the web app's session (member role, XSRF on writes, the per-user upload
     * limit) and programs' API keys (send scope, the key's own rate limit, no cookie: decision 0113).
     */
    const mount = (
      path: string,
      guard: { preValidation?: preValidationAsyncHookHandler; onRequest?: onRequestAsyncHookHandler },
      routeConfig: { apiKey?: true },
      createLimit: object,
    ) => {
      app.post(
        path,
        { ...guard, config: { ...routeConfig, ...createLimit, uploadBody: true } },
        async (request, reply) => {
          if (!/^\d+$/.test(String(request.headers['upload-length'] ?? '')))
            throw new AppError('VALIDATION_FAILED', 'The upload must give its size (Upload-Length).');
          // As the single upload: refused while the day's quota has not a byte left.
          await checkQuota(db, {
            quotas: config.quotas,
            workspaceId: currentWorkspace(request).id,
            action: 'upload',
            amount: 1,
            now: deps.now(),
          });
          await hand(request, reply);
        },
      );
      for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
        app.route({
          method,
          url: `${path}/:id`,
          schema: { params: Id },
          ...guard,
          preHandler: known,
          config: { ...routeConfig, uploadBody: true },
          handler: hand,
        });
      }
      app.get(
        `${path}/:id`,
        { ...guard, config: routeConfig, schema: { params: Id } },
        async (request, reply): Promise<TusUploadState> => {
          const state = await uploads.state(callerOf(request), request.params.id);
          if (state.state === 'reading') reply.status(202);
          return state;
        },
      );
    };
    mount(TUS_UPLOADS_PATH, { preValidation: need('member') }, {}, perUserLimit(30));
    mount(V1_TUS_UPLOADS_PATH, { onRequest: needScope('send') }, { apiKey: true }, {});
  };
