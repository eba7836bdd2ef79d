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
 * PostgreSQL's default 128 MB of shared buffers is held by PGlite's WASM memory from the start and never given
 * back. 64 MB took the server's idle RSS from ~465 to ~380 MB with no stage measurably slower; 32 MB saved ~40 MB
 * more but made upload and validate slower (decision 0080). Tables are real files, so other pages come from the
 * OS cache.
 */
const SHARED_BUFFERS = '64MB';

/**
 * Embedded PostgreSQL (WASM). `dataDir` undefined keeps it in memory (tests); `template` starts from a
 * dump made by `dump()` (test runs migrate once and load the result per file).
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Db & { dump(): Promise<Blob> }> {
  const pg = await PGlite.create({
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
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
