/**
 * One narrow database interface over embedded PGlite and a PostgreSQL server, so every repository runs
 * unchanged on both. Plain SQL: see docs/decisions/0002-plain-sql-repositories.md.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (migrations, pg-boss); answers the last one's rows. */
  exec(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; inside it use only the given handle. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The same database for work nobody waits on (sends, validation jobs). On the embedded database, whose one
   * thread runs a statement at a time, a request's statements go before such work's (decision 0095); a server
   * runs them side by side, so there it is the same handle.
   */
  background(): Db;
  /** Connections for metrics: a server's pool, or the embedded database's one thread and its waiting statements. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}
