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

  it("keeps PostgreSQL's error fields, and a failed statement rolls its transaction back", async () => {
    const err = await db.query('insert into t (id, note) values (1, $1)', ['again']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((err as Error).message).toMatch(/duplicate key/);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (20, $1)', ['lost']);
        await tx.query('insert into t (id, note) values (20, $1)', ['twice']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query('select 1 from t where id = 20')).rows).toEqual([]);
  });

  it('never shows a statement posted while a transaction is open its half-done state', async () => {
    let inside!: () => void;
    let readDone!: () => void;
    const opened = new Promise<void>((r) => (inside = r));
    const read = new Promise<void>((r) => (readDone = r));
    const tx = db.transaction(async (t) => {
      await t.query('insert into t (id, note) values (30, $1)', ['first']);
      inside();
      // A server answers the read at once: the transaction stays open until it has, whatever the machine's speed.
      // The embedded database queues the read behind the commit, so there the transaction goes straight on.
      if (db.kind === 'postgres') await read;
      await t.query("update t set note = 'second' where id = 30");
    });
    await opened;
    const seen = await db.query<{ note: string }>('select note from t where id = 30');
    readDone();
    await tx;
    // The embedded database runs one statement at a time: the read waits for the commit. A server answers it
    // from before the transaction.
    expect(seen.rows).toEqual(db.kind === 'pglite' ? [{ note: 'second' }] : []);
  });

  it("runs a request's statement before background work posted earlier, and background work in full", async () => {
    const bg = db.background();
    const done: string[] = [];
    const work = Array.from({ length: 6 }, (_, i) =>
      bg
        .query('select count(*)::int as n from generate_series(1, 20000)')
        .then((r) => done.push(`bg${i}:${String(r.rows[0]!.n)}`)),
    );
    const inTx = bg.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (40, $1)', ['background']);
      return (await tx.query<{ note: string }>('select note from t where id = 40')).rows[0]!.note;
    });
    const request = db.query('select 1 as one').then(() => done.push('request'));
    await Promise.all([...work, inTx, request]);
    expect(await inTx).toBe('background');
    const background = done.filter((d) => d.startsWith('bg'));
    const all = Array.from({ length: 6 }, (_, i) => `bg${i}:20000`);
    // The embedded database answers the request second, behind only the statement already running, and the
    // background work in the order posted; a server runs them side by side, in no set order.
    if (db.kind === 'pglite') {
      expect(done.indexOf('request')).toBeLessThanOrEqual(1);
      expect(background).toEqual(all);
    } else expect(background.sort()).toEqual(all);
  });

  it('passes bytes, dates, arrays and json both ways', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const at = new Date('2026-11-26T10:00:00.123Z');
    const r = await db.query<{ b: Uint8Array; d: Date; a: number[]; j: { x: number } }>(
      `select $1::bytea as b, $2::timestamptz as d, $3::int[] as a, $4::jsonb as j`,
      [Buffer.from(bytes), at, [1, 2, 3], JSON.stringify({ x: 1 })],
    );
    expect(new Uint8Array(r.rows[0]!.b)).toEqual(bytes);
    expect(r.rows[0]!.d).toEqual(at);
    expect(r.rows[0]!.a).toEqual([1, 2, 3]);
    expect(r.rows[0]!.j).toEqual({ x: 1 });
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
