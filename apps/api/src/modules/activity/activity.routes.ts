import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACTIVITY_CSV_NAME,
  ActivityQuery,
  type ActivityPage,
  type ActivityPeople,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { csvLine } from '../../lib/csv-out.ts';
import { perUserLimit } from '../../lib/per-user-limit.ts';
import { streamedBody } from '../../lib/stream-out.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { ACTIVITY_CSV_HEADER, activityCsvRows, activityPeople, listActivity } from './activity.service.ts';

/** The workspace's activity log (decision 0106): owners and admins read it and download it as CSV. */
export const activityRoutes =
  ({ db }: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(db);

    app.get(
      '/api/workspace/activity',
      { preValidation: need('admin'), schema: { querystring: ActivityQuery } },
      async (request): Promise<ActivityPage> => listActivity(db, currentWorkspace(request).id, request.query),
    );

    app.get(
      '/api/workspace/activity/people',
      { preValidation: need('admin') },
      async (request): Promise<ActivityPeople> => ({
        people: await activityPeople(db, currentWorkspace(request).id),
      }),
    );

    // A download of names, addresses and IPs: like the other CSV downloads it needs the XSRF header, so a
    // cross-site link cannot fetch it into another site's page.
    app.get(
      '/api/workspace/activity.csv',
      {
        preValidation: need('admin'),
        schema: { querystring: ActivityQuery },
        config: { ...perUserLimit(30), xsrf: true },
      },
      async (request, reply) => {
        const rows = activityCsvRows(db, currentWorkspace(request).id, request.query);
        const body = streamedBody(
          async (write) => {
            await write(csvLine(ACTIVITY_CSV_HEADER));
            for await (const row of rows) await write(csvLine(row));
          },
          (err) => request.log.error({ err }, 'activity download failed'),
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${ACTIVITY_CSV_NAME}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  };
