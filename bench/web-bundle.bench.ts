/**
 * Initial JavaScript of each prerendered public page (the entry script plus its modulepreloads), gzipped,
 * against the 150 KB budget. Needs `npm run build` first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const pages = join(dist, 'prerendered');
if (!existsSync(pages)) {
  console.log('apps/web/dist/prerendered is missing: run `npm run build` first.');
  process.exit(0);
}
const BUDGET_KB = 150;
const htmlFiles: [string, string][] = [];
const walk = (dir: string, route: string) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name), `${route}${route.endsWith('/') ? '' : '/'}${e.name}`);
    else if (e.name === 'index.html') htmlFiles.push([route, join(dir, e.name)]);
  }
};
walk(pages, '/');
console.log(`| page | scripts | initial JS gzipped KB | budget ${BUDGET_KB} KB |`);
console.log('|---|---|---|---|');
let over = 0;
for (const [route, file] of htmlFiles.sort()) {
  const html = readFileSync(file, 'utf8');
  const srcs = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1] ?? m[2]!);
  const kb = srcs.reduce((sum, s) => sum + gzipSync(readFileSync(join(dist, s))).length, 0) / 1024;
  if (kb > BUDGET_KB) over++;
  console.log(`| ${route} | ${srcs.length} | ${kb.toFixed(1)} | ${kb <= BUDGET_KB ? 'ok' : 'OVER'} |`);
}
if (over) {
  console.log(`\n${over} page(s) over budget`);
  process.exitCode = 1;
}
