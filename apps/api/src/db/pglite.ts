import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './db.ts';
import { BYTEA, parseBytea, serializeBytea } from './pglite-bytea.ts';

type PgliteLike = Pick<PGlite, 'query' | 'exec'>;

function wrap(pg: PgliteLike): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await pg.query<T>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      const results = await pg.exec(sql);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
  };
}

/**
 * Embedded PostgreSQL (WASM). `dataDir` undefined keeps it in memory (tests); `template` starts from a
 * dump made by `dump()` (test runs migrate once and load the result per file).
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Db & { dump(): Promise<Blob> }> {
  const pg = await PGlite.create({
    serializers: { [BYTEA]: serializeBytea },
    parsers: { [BYTEA]: parseBytea },
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: template } : {}),
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    dump: async () => (await pg.dumpDataDir('none')) as Blob,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
