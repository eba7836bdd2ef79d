import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { initPgliteDir } from './pglite-init.ts';
import { openPostgres } from './postgres.ts';

/** DATABASE_URL selects PostgreSQL; without it the embedded database lives under DATA_DIR/pglite. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  await initPgliteDir(dir);
  return openPglite(dir);
}
