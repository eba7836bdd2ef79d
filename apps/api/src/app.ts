import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env.ts';
import type { AppDeps, ResolvedDeps } from './deps.ts';
import { clientAddress } from './lib/client-address.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSession } from './plugins/session.ts';
import { registerXsrf } from './plugins/xsrf.ts';
import { JSON_BODY_LIMIT, registerBodyLimits } from './plugins/body-limits.ts';
import { registerTextGuard } from './plugins/text-guard.ts';
import { contentSecurityPolicy } from './plugins/csp.ts';
import { serveWeb, webFallback } from './plugins/serve-web.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { accountRoutes } from './modules/accounts/accounts.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { tusRoutes, tusService, v1TusRoutes } from './modules/files/tus.routes.ts';
import { uploadJobRoutes } from './modules/files/upload-jobs.routes.ts';
import { templateRoutes } from './modules/templates/templates.routes.ts';
import { pixelRoutes } from './modules/pixels/pixels.routes.ts';
import { formRoutes } from './modules/forms/forms.routes.ts';
import { deliveryRoutes } from './modules/delivery/delivery.routes.ts';
import { sourceRoutes } from './modules/sources/sources.routes.ts';
import { workspaceRoutes } from './modules/workspaces/workspaces.routes.ts';
import { memberRoutes } from './modules/workspaces/members.routes.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { insightsRoutes } from './modules/insights/insights.routes.ts';
import { registerHttpMetrics } from './plugins/metrics.ts';
import { registerApiKeyAuth } from './plugins/api-key-auth.ts';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { apiV1 } from './modules/api-v1/v1.scope.ts';
import { v1WorkspaceRoutes } from './modules/api-v1/v1-workspace.routes.ts';
import { v1UploadRoutes } from './modules/api-v1/v1-uploads.routes.ts';
import { v1CatalogRoutes } from './modules/api-v1/v1-catalog.routes.ts';
import { v1EventRoutes } from './modules/api-v1/v1-events.routes.ts';
import { v1Registry } from './modules/api-v1/openapi.ts';
import { openApiRoutes } from './modules/api-v1/openapi.routes.ts';
import { API_DOCS_PATH } from '@backsignal/contracts';

export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/**
 * Fastify's own numeric trustProxy ignores X-Forwarded-For altogether, so a hop count is a trust function:
 * the socket peer and the next hops - 1 entries from the right are our proxies, the entry before them is
 * the client.
 */
function trustProxy(setting: Config['trustProxy']) {
  if (Array.isArray(setting)) return setting;
  return setting > 0 ? (_address: string, hop: number) => hop < setting : false;
}

/** Builds the whole HTTP application without listening: server.ts listens, tests call inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const resolved: ResolvedDeps = { now: () => new Date(), fetch: globalThis.fetch, ...deps };
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: trustProxy(deps.config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: { directives: contentSecurityPolicy(deps.config) },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    strictTransportSecurity: deps.config.secureCookies,
  });
  // Per-route limits; preHandler so a key can include the parsed body (an email address).
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    keyGenerator: (request) => clientAddress(request.ip),
  });
  if (deps.webDist) await serveWeb(app, deps.webDist);
  registerErrorHandler(
    app,
    deps.webDist ? webFallback(deps.webDist) : undefined,
    deps.config.maxUploadBytes,
    deps.config.appUrl + API_DOCS_PATH,
  );
  registerBodyLimits(app, deps.config.maxUploadBytes);
  registerSession(app, resolved);
  app.decorateRequest('workspace', null);
  registerApiKeyAuth(app, resolved);
  registerXsrf(app, deps.config);
  registerTextGuard(app);
  registerHttpMetrics(app);

  // Every route the app answers, as registered: the role matrix test checks each has an entry (issue 31).
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routeTable.push({ method, url: r.url });
  });
  app.decorate('routeTable', routeTable);

  await app.register(systemRoutes(resolved));
  // Feature modules register here, one line each.
  await app.register(accountRoutes(resolved));
  await app.register(fileRoutes(resolved));
  // One tus server for the web app's resumable uploads and the v1 API's (decision 0120).
  const tus = tusService(resolved, app.log);
  await app.register(tusRoutes(resolved, tus));
  await app.register(uploadJobRoutes(resolved));
  await app.register(templateRoutes(resolved));
  await app.register(pixelRoutes(resolved));
  await app.register(formRoutes(resolved));
  await app.register(deliveryRoutes(resolved));
  await app.register(sourceRoutes(resolved));
  await app.register(workspaceRoutes(resolved));
  await app.register(memberRoutes(resolved));
  await app.register(activityRoutes(resolved));
  await app.register(webhookRoutes(resolved));
  await app.register(insightsRoutes(resolved));
  await app.register(apiKeyRoutes(resolved));
  // The public API (issue 32): one line per v1 module.
  const v1 = v1Registry();
  await app.register(
    apiV1(
      resolved,
      [v1WorkspaceRoutes, v1UploadRoutes, v1TusRoutes(tus), v1CatalogRoutes, v1EventRoutes],
      v1,
    ),
  );
  await app.register(openApiRoutes(resolved, v1));
  return app;
}
