import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { V1EventsRequest, V1EventsResponse } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { perKeyLimit } from '../../lib/per-user-limit.ts';
import { actingUserId, needScope } from '../../plugins/api-key-auth.ts';
import { currentWorkspace } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import { sendEvents } from './events.service.ts';

/** Events as JSON (decision 0114): up to 10,000 rows a call, answered once they are sent. */
export const v1EventRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/v1/events',
      {
        onRequest: needScope('send'),
        // Rows as JSON weigh what the same rows as a CSV file do: the upload limit applies.
        bodyLimit: deps.config.maxUploadBytes,
        config: { ...perKeyLimit(60), uploadBody: true },
        schema: { body: V1EventsRequest, response: { 200: V1EventsResponse } },
      },
      async (request) => {
        const { answer, fileName, pixelId } = await sendEvents(
          deps,
          currentWorkspace(request).id,
          actingUserId(request),
          request.body,
        );
        if (answer.runId) await logActivity(deps.db, request, 'send.started', fileName, { pixelId });
        return answer;
      },
    );
  };
