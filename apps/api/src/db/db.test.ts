import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await openTestDb());
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

  it('applies migrations once', async () => {
    expect(await migrate(db)).toEqual([]);
    const r = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(r.rows[0]!.n).toBeGreaterThan(0);
  });
});
