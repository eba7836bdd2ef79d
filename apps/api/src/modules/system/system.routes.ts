import type { FastifyPluginAsync } from 'fastify';
import { PUBLIC_PATHS, type PublicConfig } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { pendingMigrations } from '../../db/migrate.ts';
import { AppError } from '../../errors/app-error.ts';
import { bearerMatches, scrape } from './metrics.service.ts';

export const systemRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (app) => {
    // Liveness: the process answers. It asks nothing of the database, so an orchestrator does not restart
    // every instance while the database is down.
    app.get('/api/health', async () => ({ ok: true }));

    // Readiness: send traffic here only when the database answers, every migration of this build is applied
    // and, where this process runs background jobs, they are registered.
    app.get('/api/ready', async (_request, reply) => {
      const worker = deps.worker?.() ?? 'off';
      const database = await pendingMigrations(deps.db).then(
        (pending) => (pending === 0 ? 'ok' : `${pending} migrations pending`),
        () => 'unreachable',
      );
      const ready = database === 'ok' && worker !== 'starting';
      return reply.code(ready ? 200 : 503).send({ ready, database, worker });
    });

    // Prometheus metrics for operators: behind METRICS_TOKEN as a bearer token; without one set, not there.
    app.get('/metrics', async (request, reply) => {
      const token = deps.config.metricsToken;
      if (!token) throw new AppError('NOT_FOUND', 'Not found');
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer');
        throw new AppError('UNAUTHENTICATED', 'A valid metrics token is required.');
      }
      const { contentType, body } = await scrape(deps.db);
      return reply.type(contentType).send(body);
    });

    app.get('/sitemap.xml', async (_request, reply) => {
      const urls = PUBLIC_PATHS.filter((p) => p !== '/audit-results')
        .map((p) => `  <url><loc>${deps.config.appUrl}${p === '/' ? '/' : p}</loc></url>`)
        .join('\n');
      return reply
        .type('application/xml')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
        );
    });

    app.get('/robots.txt', async (_request, reply) => {
      const app = [
        '/dashboard',
        '/settings',
        '/map-columns',
        '/verify-data',
        '/submit',
        '/summary',
        '/pixel-accounts',
        '/verify',
        '/reset-password',
        '/api/',
        '/auth/',
      ];
      return reply
        .type('text/plain')
        .send(
          `User-agent: *\n${app.map((p) => `Disallow: ${p}`).join('\n')}\nSitemap: ${deps.config.appUrl}/sitemap.xml\n`,
        );
    });

    app.get('/api/config', async (): Promise<PublicConfig> => {
      const { captcha } = deps.config;
      return {
        bookACallUrl: deps.config.bookACallUrl,
        captchaSiteKey: captcha.siteKey ?? null,
        captchaMode: captcha.disabled ? 'off' : captcha.siteKey ? 'turnstile' : 'dev',
        marketingPixelId: deps.config.marketingPixelId ?? null,
        landingVariant: deps.config.landingVariant,
        maxUploadMb: deps.config.maxUploadBytes / 1024 / 1024,
        quotaUploadMbPerDay: deps.config.quotas.uploadBytes / 1024 / 1024,
        quotaRowsPerDay: deps.config.quotas.rows,
        retentionDays: deps.config.retentionDays,
      };
    });
  };
