/**
 * Writes every public page as static HTML into dist/prerendered/<path>/index.html, with its own title,
 * description, Open Graph tags and canonical link. dist/index.html stays the empty shell for app routes.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLIC_PAGES } from '@backsignal/contracts/public';

const web = fileURLToPath(new URL('..', import.meta.url));
const dist = join(web, 'dist');
const { render } = (await import(join(web, 'dist-ssr', 'entry-server.js'))) as { render: (p: string) => Promise<string> };
const shell = readFileSync(join(dist, 'index.html'), 'utf8');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

rmSync(join(dist, 'prerendered'), { recursive: true, force: true });
for (const [path, meta] of Object.entries(PUBLIC_PAGES)) {
  const body = await render(path);
  const head = [
    `<title>${esc(meta.title)}</title>`,
    `<meta name="description" content="${esc(meta.description)}" />`,
    `<meta property="og:title" content="${esc(meta.title)}" />`,
    `<meta property="og:description" content="${esc(meta.description)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:url" content="${esc(path)}" />`,
    `<meta property="og:image" content="/og-image.svg" />`,
    `<link rel="canonical" href="${esc(path)}" />`,
  ].join('\n    ');
  const html = shell
    .replace(/<title>[\s\S]*?<\/title>\s*<meta name="description"[^>]*>/, head)
    .replace('<!--app-html-->', body);
  const dir = join(dist, 'prerendered', path);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), html);
}
rmSync(join(web, 'dist-ssr'), { recursive: true, force: true });
console.log(`prerendered ${Object.keys(PUBLIC_PAGES).length} public pages`);
