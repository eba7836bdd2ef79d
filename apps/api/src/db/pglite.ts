import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable, QueryResult } from './db.ts';

/**
 * PostgreSQL's default 128 MB of shared buffers is held by PGlite's WASM memory from the start and never given
 * back. 64 MB took the server's idle RSS from ~465 to ~380 MB with no stage measurably slower. Since upload chunks
 * are stored deflated (a quarter of the pages), each 16 MB less took ~40 MB off idle and peak: at 32 MB, 1M rows
 * idled at 268–275 MB against 306–319 at 48, and peaked at 476–477 against 503–526, the upload ~5% slower
 * (decision 0080). Tables are real files, so other pages come from the OS cache.
 */
const SHARED_BUFFERS = '32MB';

type Request = (
  | { op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump' }
  | { op: 'close' }
) & { background?: boolean };
type Answer =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> };

/** A database error as PGlite threw it on its thread: the message, PostgreSQL's fields (code, detail…) kept. */
function rebuilt(e: Record<string, unknown>): Error {
  const err = new Error(String(e.message));
  return Object.assign(err, e, { stack: err.stack });
}

/**
 * Embedded PostgreSQL (WASM) on a thread of its own (pglite.worker.mjs; decision 0092): the API's event loop
 * only posts statements and reads answers, so a slow statement no longer stalls every request. `dataDir`
 * undefined keeps it in memory (tests); `template` starts from a dump made by `dump()` (test runs migrate once
 * and load the result per file). Statements run one at a time, a request's before the background work's
 * (`background()`, decision 0095), each lane in the order posted; a transaction holds the database until it ends.
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Db & { dump(): Promise<Blob> }> {
  const worker = new Worker(new URL('./pglite.worker.mjs', import.meta.url), {
    workerData: {
      dataDir,
      template: template ? await template.arrayBuffer() : undefined,
      sharedBuffers: SHARED_BUFFERS,
    },
    // Neither tsx nor the server's profiling flags: the thread runs plain JavaScript.
    execArgv: [],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let nextId = 1;
  let dead: Error | null = null;
  // Its first message says the database is open; an error before it (a bad data directory) is thrown here.
  await once(worker, 'message');
  worker.unref();
  worker.on('message', (m: Answer) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (!pending.size) worker.unref();
    if (m.ok) p.resolve(m.result);
    else p.reject(rebuilt(m.error));
  });
  // The thread died (a WASM abort): every statement waiting, and every later one, fails instead of hanging.
  const die = (err: Error) => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('error', die);
  worker.on('exit', (code) => die(new Error(`The embedded database stopped (exit code ${code}).`)));

  const call = <T>(req: Request): Promise<T> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      // The thread keeps the process alive only while a statement is waiting, as a socket would.
      if (!pending.size) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, ...req });
    });
  };
  const on = (tx?: number, background?: boolean): Queryable => ({
    query: <T>(sql: string, params: readonly unknown[] = []) =>
      call<QueryResult<T>>({ op: 'query', sql, params, tx, background }),
    exec: (sql: string) => call<{ rows: Record<string, unknown>[] }>({ op: 'exec', sql, tx, background }),
  });

  const lane = (background: boolean): Db & { dump(): Promise<Blob> } => ({
    kind: 'pglite',
    ...on(undefined, background),
    background: () => lane(true),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin', background });
      let result: T;
      try {
        result = await fn(on(tx));
      } catch (err) {
        await call({ op: 'end', tx, commit: false });
        throw err;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    // One thread, one statement at a time: every other posted statement is waiting.
    poolStats: () => ({ total: 1, idle: pending.size ? 0 : 1, waiting: Math.max(0, pending.size - 1) }),
    dump: async () => new Blob([await call<ArrayBuffer>({ op: 'dump' })]),
    async close() {
      if (dead) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  });
  return lane(false);
}
