import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

let db: Db;
let url: string | undefined;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, url, drop } = await openTestDb());
  await db.exec('create table t (id int primary key, note text)');
});
afterAll(() => drop());

describe(`database (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('runs parameterised queries and reports affected rows', async () => {
    const ins = await db.query('insert into t (id, note) values ($1, $2), ($3, $4)', [1, 'a', 2, 'b']);
    expect(ins.rowCount).toBe(2);
    const r = await db.query<{ note: string }>('select note from t where id = $1', [2]);
    expect(r.rows).toEqual([{ note: 'b' }]);
  });

  it('answers the last statement of a multi-statement exec', async () => {
    const r = await db.exec('select 1 as a; select 2 as b');
    expect(r.rows).toEqual([{ b: 2 }]);
  });

  it('commits a transaction, and rolls it back whole on error', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (10, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (11, $1)', ['lost']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const r = await db.query<{ id: number }>('select id from t where id >= 10 order by id');
    expect(r.rows.map((x) => x.id)).toEqual([10]);
  });

  // Only a server can end a connection from outside (the embedded database has none): this runs in the
  // PostgreSQL leg (.ci/run sets TEST_DATABASE_URL).
  if (process.env.TEST_DATABASE_URL)
    it('survives the server ending idle connections', async () => {
      await Promise.all(Array.from({ length: 4 }, () => db.query('select pg_sleep(0.01)')));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const r = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      await admin.end();
      expect(r.rows[0].n).toBeGreaterThan(0);
      await new Promise((res) => setTimeout(res, 100));
      expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    });

  it('applies migrations once', async () => {
    expect(await migrate(db)).toEqual([]);
    const r = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(r.rows[0]!.n).toBeGreaterThan(0);
  });
});
