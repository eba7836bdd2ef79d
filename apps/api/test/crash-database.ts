import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { openTestDb } from './context.ts';

/**
 * The database a crash test shares with the worker processes it kills. On PostgreSQL (TEST_DATABASE_URL) they
 * share a fresh test database; the embedded database is owned by one process at a time, so the workers and the
 * test open an on-disk PGlite in turn (`withDb`).
 */
export interface CrashDatabase {
  /** For the worker's environment (its crash-worker reads them). */
  env: { CRASH_DB_URL: string; CRASH_DATA_DIR: string };
  withDb<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

export async function openCrashDatabase(dirPrefix: string): Promise<CrashDatabase> {
  let url: string | undefined;
  let dir: string | undefined;
  let drop: () => Promise<void>;
  if (process.env.TEST_DATABASE_URL) {
    const t = await openTestDb();
    await t.db.close().catch(() => {});
    url = t.url;
    drop = t.drop;
  } else {
    const made = mkdtempSync(join(tmpdir(), dirPrefix));
    dir = made;
    drop = async () => rmSync(made, { recursive: true, force: true });
  }
  return {
    env: { CRASH_DB_URL: url ?? '', CRASH_DATA_DIR: dir ?? '' },
    async withDb(fn) {
      const db = await openDatabase({ databaseUrl: url, dataDir: dir ?? '' });
      try {
        await migrate(db);
        return await fn(db);
      } finally {
        await db.close();
      }
    },
    drop,
  };
}
