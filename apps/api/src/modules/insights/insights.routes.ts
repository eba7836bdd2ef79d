import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InsightsQuery, type Insights } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { readInsights } from './insights.service.ts';

/** The workspace's Insights (issue 33, decision 0110): every member reads them, a viewer too. */
export const insightsRoutes =
  ({ db }: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(db);

    app.get(
      '/api/insights',
      { preValidation: need('viewer'), schema: { querystring: InsightsQuery } },
      async (request): Promise<Insights> => readInsights(db, currentWorkspace(request).id, request.query),
    );
  };
