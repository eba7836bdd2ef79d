import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeliverySummary,
  SendRequest,
  SendResponse,
  UploadJobParams,
  UploadJobLookup,
  UploadJobResponse,
  UploadResponse,
  UploadSummary,
  V1ListQuery,
  V1MappingRequest,
  V1Message,
  V1PrepareRequest,
  v1Page,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { perKeyLimit } from '../../lib/per-user-limit.ts';
import { actingUserId, needScope } from '../../plugins/api-key-auth.ts';
import { currentWorkspace } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import { sendCsv } from '../delivery/delivery.routes.ts';
import * as delivery from '../delivery/delivery.service.ts';
import { presentUpload } from '../files/files.presenter.ts';
import { filesRepo } from '../files/files.repo.ts';
import { filePart } from '../files/files.routes.ts';
import * as files from '../files/files.service.ts';
import { findJob, jobDeps, presentJob, startJob } from '../files/upload-jobs.service.ts';
import { resolveMapping } from './v1-mapping.ts';
import { decodeCursor, encodeCursor } from './v1-page.ts';

const Id = z.object({ id: z.string().uuid() });

/**
 * Files through the API: the same services, rules and activity entries as the screens' routes, with a key's
 * scope standing for the role (read = viewer, send = member).
 */
export const v1UploadRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    await instance.register(multipart);
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config } = deps;
    const ws = (r: FastifyRequest) => currentWorkspace(r).id;
    const jd = jobDeps(deps, instance.log);
    const read = needScope('read');
    const send = needScope('send');

    app.get(
      '/api/v1/uploads',
      { onRequest: read, schema: { querystring: V1ListQuery, response: { 200: v1Page(UploadSummary) } } },
      async (request) => {
        const after = decodeCursor(request.query.cursor, ['at', 'id']);
        const rows = await filesRepo.pageForWorkspace(db, ws(request), request.query.limit + 1, after);
        const data = rows.slice(0, request.query.limit);
        const last = data[data.length - 1];
        return {
          data: data.map(presentUpload),
          nextCursor:
            rows.length > data.length && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
        };
      },
    );

    app.post(
      '/api/v1/uploads',
      {
        onRequest: send,
        config: { ...perKeyLimit(30), uploadBody: true },
        schema: { response: { 201: UploadResponse } },
      },
      async (request, reply) => {
        const { name, bytes } = await filePart(
          request,
          config.maxUploadBytes,
          'upload',
          'Invalid file type. Please upload a CSV file.',
        );
        const { file, ingest } = await files.createUpload(db, ws(request), name, bytes, {
          maxBytes: config.maxUploadBytes,
          quotas: config.quotas,
          now: deps.now(),
        });
        await logActivity(db, request, 'file.uploaded', file.fileName, { rows: file.rowCount });
        return reply.status(201).send({
          file: presentUpload(file),
          headers: ingest.headers,
          issues: ingest.issues,
          message: `Uploaded: ${file.fileName}`,
        });
      },
    );

    app.get(
      '/api/v1/uploads/:id',
      { onRequest: read, schema: { params: Id, response: { 200: UploadSummary } } },
      async (request) => presentUpload(await files.ownFile(db, ws(request), request.params.id)),
    );

    app.delete(
      '/api/v1/uploads/:id',
      { onRequest: send, schema: { params: Id, response: { 200: V1Message } } },
      async (request) => {
        const f = await files.deleteOwnFile(db, ws(request), request.params.id);
        await logActivity(db, request, 'file.deleted', f.fileName);
        return { message: 'File deleted!' };
      },
    );

    app.put(
      '/api/v1/uploads/:id/mapping',
      { onRequest: send, schema: { params: Id, body: V1MappingRequest, response: { 200: UploadSummary } } },
      async (request) => {
        const current = await files.ownFile(db, ws(request), request.params.id);
        const m = await resolveMapping(db, ws(request), request.body, current.settings);
        const f = await files.updateStatus(db, ws(request), request.params.id, { status: 'mapped', ...m });
        await logActivity(db, request, 'mapping.saved', f.fileName);
        return presentUpload(f);
      },
    );

    // Validation and prepare are the screens' background jobs (decision 0091): POST starts, GET reads progress.
    app.post(
      '/api/v1/uploads/:id/jobs/:kind',
      {
        onRequest: send,
        config: perKeyLimit(60),
        schema: {
          params: UploadJobParams,
          body: V1PrepareRequest.optional(),
          response: { 202: UploadJobResponse },
        },
      },
      async (request, reply) => {
        const { id, kind } = request.params;
        if (kind === 'prepare') {
          // What the screens do between the two passes: the refund choice, then "validated" (blocked by errors
          // unless the call skips the rows that have them).
          if (request.body?.refunds) await files.chooseRefunds(db, ws(request), id, request.body.refunds);
          await files.updateStatus(db, ws(request), id, {
            status: 'validated',
            skipErrorRows: request.body?.skipErrorRows,
          });
        }
        const { job, upload, started } = await startJob(jd, ws(request), id, kind);
        if (started && kind === 'validate')
          await logActivity(db, request, 'validation.started', upload.fileName);
        return reply.status(202).send({ job: presentJob(job, upload) });
      },
    );

    app.get(
      '/api/v1/uploads/:id/jobs/:kind',
      { onRequest: send, schema: { params: UploadJobParams, response: { 200: UploadJobLookup } } },
      async (request) => {
        const { job, upload } = await findJob(jd, ws(request), request.params.id, request.params.kind);
        return { job: job ? presentJob(job, upload) : null };
      },
    );

    app.post(
      '/api/v1/uploads/:id/send',
      {
        onRequest: send,
        config: perKeyLimit(10),
        schema: { params: Id, body: SendRequest, response: { 202: SendResponse } },
      },
      async (request, reply) => {
        const run = await delivery.startSend(
          deps,
          ws(request),
          request.params.id,
          request.body,
          actingUserId(request),
        );
        const file = await filesRepo.findInWorkspace(db, ws(request), run.upload_id);
        await logActivity(db, request, 'send.started', file?.fileName, { pixelId: run.pixel_id });
        return reply.status(202).send({ runId: run.id, status: run.status });
      },
    );

    app.get(
      '/api/v1/uploads/:id/summary',
      { onRequest: read, schema: { params: Id, response: { 200: DeliverySummary } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return delivery.summary(db, ws(request), request.params.id, 0);
      },
    );

    app.get(
      '/api/v1/uploads/:id/failed-rows',
      { onRequest: send, schema: { params: Id } },
      async (request, reply) => {
        const { fileName, headers, rows } = await delivery.allFailedRows(db, ws(request), request.params.id);
        return sendCsv(request, reply, fileName, headers, rows);
      },
    );
  };
