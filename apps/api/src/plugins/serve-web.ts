import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isAppScreen, PUBLIC_PATHS } from '@backsignal/contracts/public';

const API_PREFIXES = ['/api/', '/auth/'];
/** Browser routes of spec §2 that are not prerendered and live outside a workspace: the SPA shell answers 200. */
const ACCOUNT_PATHS = [
  '/signup',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/verify',
  '/verify-notice',
  '/invite',
];
const KNOWN = new Set([...PUBLIC_PATHS, ...ACCOUNT_PATHS]);
/** An app route: a screen, or a screen in a workspace's address (`/w/<slug>/…`, decision 0104). */
function isAppRoute(path: string): boolean {
  if (KNOWN.has(path || '/') || isAppScreen(path)) return true;
  const m = /^\/w\/[a-z0-9-]{1,80}(\/.*)?$/.exec(path);
  return !!m && (!m[1] || isAppScreen(m[1]));
}

/** Serves the built SPA's files; hashed assets are immutable, HTML is revalidated so a deploy shows at once. */
export async function serveWeb(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dist,
    // '/' and every page route go through webFallback, which picks the prerendered page or the shell.
    index: false,
    wildcard: false,
    setHeaders: (res, file) => {
      res.header(
        'cache-control',
        file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    },
  });
}

/**
 * Browser routes without a file: a prerendered public page (dist/prerendered/<path>/index.html) when there is
 * one, else the SPA shell index.html (history routing) for the app's routes. A path that matches no route is
 * answered 404 with the prerendered not-found page (dist/404.html; the shell if it is missing), which the
 * router then hydrates as the same page. API paths decline and keep their JSON 404.
 */
export function webFallback(dist: string) {
  const notFound = existsSync(join(dist, '404.html')) ? '404.html' : 'index.html';
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const path = (request.url.split('?')[0] ?? '/').replace(/\/+$/, '');
    if (
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      API_PREFIXES.some((p) => (path + '/').startsWith(p))
    )
      return false;
    // A missing asset (an old hashed bundle after a deploy) must 404, not come back as HTML.
    if (path.startsWith('/assets/') || /\.[a-z0-9]{2,5}$/i.test(path)) return false;
    const candidate = join('prerendered', path, 'index.html');
    const [status, page] =
      !path.includes('..') && existsSync(join(dist, candidate))
        ? [200, candidate]
        : isAppRoute(path)
          ? [200, 'index.html']
          : [404, notFound];
    void reply.code(status).type('text/html').header('cache-control', 'no-cache').sendFile(page);
    return true;
  };
}
