import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port nobody listens on now: the OS picks it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Where this run's app, fake Graph API and data live. E2E_PORT, E2E_META_GRAPH_URL and E2E_DATA_DIR win when set;
 * otherwise free ports and a fresh temp folder, so runs side by side do not collide. Written back to the
 * environment: Playwright's workers inherit it and load this config again, and must see the same values.
 */
export async function runEnv(env = process.env) {
  env.E2E_PORT ||= String(await freePort());
  env.E2E_META_GRAPH_URL ||= `http://127.0.0.1:${await freePort()}`;
  if (!env.E2E_DATA_DIR) {
    env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'backsignal-e2e-'));
    // Ours to delete when the run ends (global-teardown.ts); a folder someone named is theirs.
    env.E2E_DATA_DIR_OWNED = '1';
  }
  return { port: Number(env.E2E_PORT), graphUrl: env.E2E_META_GRAPH_URL, dataDir: env.E2E_DATA_DIR };
}

/**
 * The origin the web build's public pages link to, the same for every app a run starts: the build's stamp includes
 * it, so a server started with its own port as the origin would rebuild apps/web/dist under the others (two
 * shards side by side, or a journey's second server). The default is the one `npm run build` uses.
 */
export const publicUrl = (env = process.env) => env.PUBLIC_URL ?? 'http://localhost:3000';
