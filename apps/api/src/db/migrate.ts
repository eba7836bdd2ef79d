import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any constant: serialises migrations when several instances start at once on one PostgreSQL.
const LOCK_ID = 724_311_009;

const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();

/**
 * How many of this build's migrations the database has not applied, in one statement: readiness asks it, so it
 * also tells whether the database answers.
 */
export async function pendingMigrations(db: Queryable, files = migrationFiles()): Promise<number> {
  const r = await db.query<{ applied: number }>(
    'select count(*)::int as applied from schema_migrations where name = any($1::text[])',
    [files],
  );
  return files.length - r.rows[0]!.applied;
}

/**
 * Applies every migrations/*.sql not yet applied, in file-name order, each in its own transaction. `before` stops
 * at the first file not named before it: migration tests build the database as an older release left it.
 */
export async function migrate(db: Db, opts: { before?: string } = {}): Promise<string[]> {
  const files = migrationFiles().filter((f) => opts.before === undefined || f < opts.before);
  await db.exec(`create table if not exists schema_migrations (
    name text primary key, applied_at timestamptz not null default now())`);
  if (db.kind === 'postgres') await db.query('select pg_advisory_lock($1)', [LOCK_ID]);
  const applied: string[] = [];
  try {
    const done = new Set(
      (await db.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = readFileSync(MIGRATIONS_DIR + file, 'utf8');
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      });
      applied.push(file);
    }
  } finally {
    if (db.kind === 'postgres') await db.query('select pg_advisory_unlock($1)', [LOCK_ID]);
  }
  return applied;
}
