import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppDeps } from '../src/deps.ts';
import { loadConfig, type Config } from '../src/config/env.ts';
import type { Db, Queryable } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { memoryMailer } from '../src/integrations/mailer.ts';

// Declared beside the one inject() that reads it, so every program that includes this file (the bench's too)
// knows the key; global-setup.ts provides it.
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * A fresh, migrated database per test file: in-memory PGlite always, or a new database on the PostgreSQL
 * server named by TEST_DATABASE_URL (dropped again on close).
 */
/** A database of its own for a test; `before` leaves it as the migrations before that file left it. */
export async function openTestDb(
  opts: { before?: string } = {},
): Promise<{ db: Db; url?: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // The template is fully migrated: a test of an older schema starts empty.
    const template = opts.before === undefined ? inject('pgliteTemplate') : undefined;
    const db = template
      ? await openPglite(undefined, new Blob([readFileSync(template)]))
      : await openPglite();
    await migrate(db, opts);
    return { db, drop: () => db.close() };
  }
  const name = `bs_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 5);
  await migrate(db, opts);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** A bare user row, for tests of repositories and services that need an owner but no sign-in. */
/** A user with its first workspace (the user's id, as signup gives it), owned by it. */
export async function insertUser(db: Db, id: string, email: string): Promise<void> {
  await db.query(`insert into users (id, email, first_name, password_hash) values ($1, $2, 'Test', 'x')`, [
    id,
    email,
  ]);
  await insertFirstWorkspace(db, id);
}

/** The user's first workspace, as signup makes it: the user's id, owned by the user. */
export async function insertFirstWorkspace(db: Queryable, userId: string): Promise<void> {
  await db.query(`insert into workspaces (id, name, slug) values ($1, 'Test', $2)`, [
    userId,
    `test-${userId}`,
  ]);
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $1, 'owner')`, [
    userId,
  ]);
}

/**
 * The data folder tests name but never write to: every test configuration carries its secrets, and tests use
 * a memory mailer or an outbox folder of their own. `.ci/run` checks the temp folder is as it was after the tests.
 */
export const UNWRITTEN_DATA_DIR = join(tmpdir(), 'backsignal-test-unwritten');

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: UNWRITTEN_DATA_DIR,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-123',
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    APP_URL: 'http://localhost:3000',
    // The sources tests' servers listen on loopback, which the SSRF rule refuses unless listed.
    SOURCES_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
    ...overrides,
  });
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

export async function createTestContext(
  opts: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {},
) {
  const { db, url, drop } = await openTestDb();
  const config = testConfig(opts.env);
  const mailer = memoryMailer();
  const app = await buildApp({ config, db, mailer, ...opts.deps });
  await app.ready();
  return {
    app,
    db,
    dbUrl: url,
    config,
    mailer,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
