/**
 * Writes every public page as static HTML into dist/prerendered/<path>/index.html, with its own title,
 * description, Open Graph and Twitter tags and canonical link, and the not-found page as dist/404.html.
 * dist/index.html stays the empty shell for app routes.
 *
 * Crawlers need absolute URLs: they are built from PUBLIC_URL, else APP_URL, at build time (set one of them
 * when building for a deployment; the fallback is the local development address).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLIC_PAGES } from '@backsignal/contracts/public';

const web = fileURLToPath(new URL('..', import.meta.url));
const dist = join(web, 'dist');
const { render } = (await import(join(web, 'dist-ssr', 'entry-server.js'))) as {
  render: (p: string) => Promise<string>;
};
const shell = readFileSync(join(dist, 'index.html'), 'utf8');
// The shell's title and description, however index.html is formatted: each page puts its own in their place.
const SHELL_META = /<title>[\s\S]*?<\/title>\s*<meta\s+name="description"[^>]*>/;
if (!SHELL_META.test(shell))
  throw new Error('index.html has no <title> followed by <meta name="description">');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
// The port `npm start` serves on when neither is set (PORT, as the API reads it), so canonical links point at it.
const origin = (
  process.env.PUBLIC_URL ??
  process.env.APP_URL ??
  `http://localhost:${process.env.PORT || 3000}`
).replace(/\/+$/, '');
if (!process.env.PUBLIC_URL && !process.env.APP_URL)
  console.warn(`prerender: PUBLIC_URL/APP_URL not set, page URLs use ${origin}`);
const absolute = (path: string) => `${origin}${path}`;

rmSync(join(dist, 'prerendered'), { recursive: true, force: true });
for (const [path, meta] of Object.entries(PUBLIC_PAGES)) {
  const body = await render(path);
  const head = [
    `<title>${esc(meta.title)}</title>`,
    `<meta name="description" content="${esc(meta.description)}" />`,
    `<meta property="og:title" content="${esc(meta.title)}" />`,
    `<meta property="og:description" content="${esc(meta.description)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Backsignal" />`,
    `<meta property="og:url" content="${esc(absolute(path))}" />`,
    `<meta property="og:image" content="${esc(absolute('/og-image.png'))}" />`,
    `<meta property="og:image:type" content="image/png" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta property="og:image:alt" content="Backsignal: offline conversions to Meta, done right." />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${esc(meta.title)}" />`,
    `<meta name="twitter:description" content="${esc(meta.description)}" />`,
    `<meta name="twitter:image" content="${esc(absolute('/og-image.png'))}" />`,
    `<link rel="canonical" href="${esc(absolute(path))}" />`,
  ].join('\n    ');
  const html = shell.replace(SHELL_META, head).replace('<!--app-html-->', body);
  const dir = join(dist, 'prerendered', path);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), html);
}
// Served with status 404 for paths that match no route; the router hydrates it as the same not-found page.
const notFound = shell
  .replace(
    SHELL_META,
    `<title>Page not found | Backsignal</title>\n    <meta name="robots" content="noindex" />`,
  )
  .replace('<!--app-html-->', await render('/__not-found__'));
writeFileSync(join(dist, '404.html'), notFound);
rmSync(join(web, 'dist-ssr'), { recursive: true, force: true });
console.log(`prerendered ${Object.keys(PUBLIC_PAGES).length} public pages`);
