import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BatchesQuery,
  DeliveredQuery,
  SendRequest,
  SummaryQuery,
  type BatchesPage,
  type DeliveredResponse,
  type DeliverySummary,
  type SendResponse,
  type SuggestedAccount,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { csvLine } from '../../lib/csv-out.ts';
import { perUserLimit } from '../../lib/per-user-limit.ts';
import { streamedBody } from '../../lib/stream-out.ts';
import { currentUser } from '../../plugins/session.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import * as delivery from './delivery.service.ts';
import type { ActivityDetails } from '@backsignal/contracts';
import { logActivity } from '../activity/activity.http.ts';
import { filesRepo } from '../files/files.repo.ts';

const Id = z.object({ id: z.string().uuid() });
const BatchParams = z.object({ id: z.string().uuid(), batchId: z.string().uuid() });

export const deliveryRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config } = deps;
    const need = roleGuard(deps.db);
    app.addHook('preValidation', need('viewer'));
    const uid = (r: FastifyRequest) => currentWorkspace(r).id;
    // Who started which file's send to which pixel; its end is recorded by the engine (decision 0106).
    const logSend = async (
      r: FastifyRequest,
      run: { upload_id: string; pixel_id: string },
      retry = false,
    ) => {
      const file = await filesRepo.findInWorkspace(db, uid(r), run.upload_id);
      const details: ActivityDetails = { pixelId: run.pixel_id };
      if (retry) details.retry = true;
      await logActivity(db, r, 'send.started', file?.fileName, details);
    };

    app.post(
      '/api/uploads/:id/send',
      { preValidation: need('member'), schema: { params: Id, body: SendRequest }, config: perUserLimit(10) },
      async (request, reply): Promise<SendResponse> => {
        const run = await delivery.startSend(
          deps,
          uid(request),
          request.params.id,
          request.body,
          currentUser(request).id,
        );
        await logSend(request, run);
        reply.status(202);
        return { runId: run.id, status: run.status };
      },
    );

    // Retries a send Meta stopped, once the user fixed the cause: only the events not delivered go (0099).
    app.post(
      '/api/uploads/:id/send/retry',
      { preValidation: need('member'), schema: { params: Id }, config: perUserLimit(10) },
      async (request, reply): Promise<SendResponse> => {
        const run = await delivery.retrySend(deps, uid(request), request.params.id, currentUser(request).id);
        await logSend(request, run, true);
        reply.status(202);
        return { runId: run.id, status: run.status };
      },
    );

    app.get(
      '/api/uploads/:id/summary',
      { schema: { params: Id, querystring: SummaryQuery } },
      async (request, reply): Promise<DeliverySummary> => {
        reply.header('cache-control', 'no-store');
        return delivery.summary(db, uid(request), request.params.id, request.query.batchOffset ?? 0);
      },
    );

    app.get(
      '/api/uploads/:id/batches',
      { schema: { params: Id, querystring: BatchesQuery } },
      async (request, reply): Promise<BatchesPage> => {
        reply.header('cache-control', 'no-store');
        return delivery.batches(db, uid(request), request.params.id, request.query);
      },
    );

    app.get(
      '/api/uploads/:id/failed-rows',
      { preValidation: need('member'), schema: { params: Id } },
      async (request, reply) => {
        const { fileName, headers, rows } = await delivery.allFailedRows(db, uid(request), request.params.id);
        return sendCsv(request, reply, fileName, headers, rows);
      },
    );

    app.get(
      '/api/uploads/:id/delivered',
      { preValidation: need('member'), schema: { params: Id, querystring: DeliveredQuery } },
      async (request): Promise<DeliveredResponse> => {
        const n = await delivery.deliveredBefore(
          db,
          config,
          uid(request),
          request.params.id,
          request.query.accountId,
          deps.now(),
        );
        return { alreadyDelivered: n.live, alreadyDeliveredTest: n.test };
      },
    );

    app.get(
      '/api/uploads/:id/suggested-account',
      { preValidation: need('member'), schema: { params: Id } },
      async (request, reply): Promise<SuggestedAccount> => {
        reply.header('cache-control', 'no-store');
        return { accountId: await delivery.suggestedAccount(db, uid(request), request.params.id) };
      },
    );

    app.get(
      '/api/uploads/:id/batches/:batchId/download-original',
      { preValidation: need('member'), schema: { params: BatchParams } },
      async (request, reply) => {
        const { fileName, headers, rows } = await delivery.batchRows(
          db,
          uid(request),
          request.params.id,
          request.params.batchId,
        );
        return sendCsv(request, reply, fileName, headers, rows);
      },
    );
  };

/** A CSV download of rows, streamed (also /api/v1's failed rows). */
export function sendCsv(
  request: FastifyRequest,
  reply: FastifyReply,
  fileName: string,
  headers: string[],
  rows: AsyncIterable<string[]>,
) {
  const body = streamedBody(
    async (write) => {
      await write(csvLine(headers));
      for await (const row of rows) await write(csvLine(row));
    },
    (err) => request.log.error({ err }, 'failed-rows download failed'),
  );
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
