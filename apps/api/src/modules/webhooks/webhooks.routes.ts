import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WebhookCreate, WebhookDeliveryQuery, WebhookUpdate } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import * as webhooks from './webhooks.service.ts';

const Id = z.object({ id: z.string().max(64) });
const DeliveryId = z.object({ id: z.string().max(64), deliveryId: z.string().max(64) });

/**
 * Webhook endpoints (issue 32, decision 0117): owners and admins only, since an endpoint receives the
 * workspace's events and its secret proves them. Secrets appear in the answers of create and rotate only.
 */
export const webhookRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(deps.db);
    const ws = (request: Parameters<typeof currentWorkspace>[0]) => currentWorkspace(request).id;
    app.addHook('preValidation', need('admin'));

    app.get('/api/webhooks', async (request) => ({
      endpoints: await webhooks.listEndpoints(deps, ws(request)),
    }));

    app.post('/api/webhooks', { schema: { body: WebhookCreate } }, async (request, reply) => {
      const created = await webhooks.createEndpoint(deps, ws(request), request.body);
      await logActivity(deps.db, request, 'webhook.added', created.endpoint.url);
      return reply.status(201).send(created);
    });

    app.patch('/api/webhooks/:id', { schema: { params: Id, body: WebhookUpdate } }, async (request) => {
      const endpoint = await webhooks.updateEndpoint(deps, ws(request), request.params.id, request.body);
      await logActivity(deps.db, request, 'webhook.edited', endpoint.url, {
        status: endpoint.enabled ? 'enabled' : 'disabled',
      });
      return { endpoint };
    });

    app.delete('/api/webhooks/:id', { schema: { params: Id } }, async (request) => {
      const e = await webhooks.deleteEndpoint(deps, ws(request), request.params.id);
      await logActivity(deps.db, request, 'webhook.removed', e.url);
      return { message: 'Endpoint deleted' };
    });

    app.post('/api/webhooks/:id/rotate-secret', { schema: { params: Id } }, async (request) => {
      const rotated = await webhooks.rotateSecret(deps, ws(request), request.params.id);
      await logActivity(deps.db, request, 'webhook.secret_rotated', rotated.endpoint.url);
      return rotated;
    });

    app.post(
      '/api/webhooks/:id/test',
      { schema: { params: Id }, config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const deliveryId = await webhooks.sendTestEvent(deps, ws(request), request.params.id);
        return reply.status(202).send({ deliveryId, message: 'Test event queued' });
      },
    );

    app.get(
      '/api/webhooks/:id/deliveries',
      { schema: { params: Id, querystring: WebhookDeliveryQuery } },
      async (request) => webhooks.listDeliveries(deps, ws(request), request.params.id, request.query),
    );

    app.post(
      '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
      { schema: { params: DeliveryId }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const deliveryId = await webhooks.redeliver(
          deps,
          ws(request),
          request.params.id,
          request.params.deliveryId,
        );
        return reply.status(202).send({ deliveryId, message: 'Delivery queued again' });
      },
    );
  };
