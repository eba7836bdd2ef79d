import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db.ts';

// int8 (counts, sums) as numbers: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await client.query(sql, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      const r: pg.QueryResult | pg.QueryResult[] = await client.query(sql);
      return { rows: (Array.isArray(r) ? (r.at(-1)?.rows ?? []) : r.rows) as Record<string, unknown>[] };
    },
  };
}

export async function openPostgres(url: string, max = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection the server ends (restart, failover, an admin's terminate) is an 'error' event on the
  // pool; unheard, it would crash the process. The pool drops that connection and opens a new one when needed.
  pool.on('error', (err) => {
    console.error(
      JSON.stringify({ level: 40, msg: 'idle database connection closed by the server', err: err.message }),
    );
  });
  // Fail at boot, not on the first request, when the server is unreachable.
  await pool.query('select 1');
  const db: Db = {
    kind: 'postgres',
    background: () => db,
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
  return db;
}
