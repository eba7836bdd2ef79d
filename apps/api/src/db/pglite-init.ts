import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Creates an embedded database cluster in `dir` in a short-lived child process, if `dir` holds none yet.
 * PGlite's initdb run inside the serving process grew its heap by ~430 MB that was never returned (a fresh
 * data directory idled at 880–930 MB against 450 MB after a restart); run in a child, it leaves with it.
 */
export async function initPgliteDir(dir: string): Promise<boolean> {
  if (existsSync(join(dir, 'PG_VERSION'))) return false;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)});
const pg = await PGlite.create({ dataDir: process.argv[1] });
await pg.close();`;
  await run(process.execPath, ['--input-type=module', '-e', script, dir], { timeout: 300_000 });
  return true;
}
