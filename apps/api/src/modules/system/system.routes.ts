import type { FastifyPluginAsync } from 'fastify';
import { PUBLIC_PATHS, type PublicConfig } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../app.ts';

export const systemRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (app) => {
    app.get('/api/health', async () => {
      await deps.db.query('select 1');
      return { ok: true };
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
