// The web build's inputs as one hash, stored beside the build (apps/web/dist/.build-hash): `npm start` rebuilds
// when they changed (a `git pull`, an edit), not only when the build is missing. `node scripts/web-build-stamp.mjs
// --write` stamps a fresh build (run by `npm run build`).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const stampOf = (root) => join(root, 'apps/web/dist/.build-hash');
/** What the web build reads: its own sources and config, the workspace packages it imports, the locked deps. */
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/scripts',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/tsconfig.json',
  'apps/web/package.json',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'packages/core/src',
  'packages/core/package.json',
  'package-lock.json',
];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && !/\.test\.tsx?$/.test(name))
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** The prerendered pages carry absolute URLs (canonical links), so where they point is an input too. */
export function publicOrigin(env = process.env) {
  return (env.PUBLIC_URL ?? env.APP_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, '');
}

export function inputsHash(env = process.env, root = ROOT) {
  const h = createHash('sha256');
  h.update(`origin ${publicOrigin(env)}\n`);
  for (const file of INPUTS.flatMap((p) => files(join(root, p)))) {
    h.update(`${relative(root, file)}\n`);
    h.update(readFileSync(file));
  }
  return h.digest('hex');
}

/** True when the build is missing or was made from other inputs. */
export function webBuildStale(env = process.env, root = ROOT) {
  if (!existsSync(join(root, 'apps/web/dist/index.html')) || !existsSync(stampOf(root))) return true;
  return readFileSync(stampOf(root), 'utf8').trim() !== inputsHash(env, root);
}

/** Records that the build in apps/web/dist was made from the inputs as they are now. */
export function writeStamp(env = process.env, root = ROOT) {
  writeFileSync(stampOf(root), `${inputsHash(env, root)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) writeStamp();
