// The embedded database's own thread (docs/decisions/0092-pglite-in-a-worker-thread.md): PGlite's WASM runs here,
// so a 1,000-row ledger insert (~30 ms of WASM) no longer holds the API's event loop. Plain JavaScript, started
// without the TypeScript loader: tsx in a worker costs ~40 MB and nothing here needs it.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { BYTEA, parseBytea, serializeBytea } from './pglite-bytea.mjs';

const { dataDir, template, sharedBuffers } = workerData;
const pg = await PGlite.create({
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  serializers: { [BYTEA]: serializeBytea },
  parsers: { [BYTEA]: parseBytea },
  ...(dataDir ? { dataDir } : {}),
  ...(template ? { loadDataDir: new Blob([template]) } : {}),
});

/** Open transactions by id: each holds PGlite's lock until the main thread says commit or roll back. */
const transactions = new Map();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');

const reply = (id, result, transfer) => parentPort.postMessage({ id, ok: true, result }, transfer ?? []);
/**
 * PGlite's errors carry PostgreSQL's fields (code, detail, constraint…): sent as plain data, rebuilt there. Only
 * plain values cross: anything else in an error (a cause, a function) could not be cloned and would end the thread.
 */
const fail = (id, err) => {
  const fields = {};
  for (const [k, v] of Object.entries(err ?? {}))
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  parentPort.postMessage({
    id,
    ok: false,
    error: { ...fields, name: err?.name ?? 'Error', message: err?.message ?? String(err) },
  });
};

async function query(on, sql, params) {
  const r = await on.query(sql, params);
  return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
}
async function exec(on, sql) {
  const results = await on.exec(sql);
  return { rows: results.at(-1)?.rows ?? [] };
}

/** PGlite's handle for transaction `tx`, or the database itself outside one. */
const target = (tx) => (tx ? transactions.get(tx).handle : pg);

/** Opens a transaction and answers its id; settles once the transaction has ended. */
function begin(id) {
  const tx = nextTx++;
  // `end` is resolved by the 'end' message with its id and whether to commit.
  const entry = { handle: null, end: null };
  const ended = new Promise((resolve) => (entry.end = resolve));
  transactions.set(tx, entry);
  let endId = null;
  return pg
    .transaction(async (handle) => {
      entry.handle = handle;
      reply(id, tx);
      const end = await ended;
      endId = end.id;
      if (!end.commit) throw ROLLBACK;
    })
    .then(
      () => {
        transactions.delete(tx);
        reply(endId, null);
      },
      (err) => {
        transactions.delete(tx);
        if (endId === null) fail(id, err);
        else if (err === ROLLBACK) reply(endId, null);
        else fail(endId, err);
      },
    );
}

async function handle(m) {
  try {
    switch (m.op) {
      case 'query':
        return reply(m.id, await query(target(m.tx), m.sql, m.params));
      case 'exec':
        return reply(m.id, await exec(target(m.tx), m.sql));
      case 'begin':
        return begin(m.id);
      case 'end':
        return transactions.get(m.tx).end({ id: m.id, commit: m.commit });
      case 'dump': {
        const bytes = await (await pg.dumpDataDir('none')).arrayBuffer();
        return reply(m.id, bytes, [bytes]);
      }
      case 'close':
        await pg.close();
        reply(m.id, null);
        return parentPort.close();
    }
  } catch (err) {
    fail(m.id, err);
  }
}

/**
 * Statements wait here, one lane for requests and one for background work (`background` on the message: sends,
 * validation jobs), so a request's statement runs next instead of after every background statement posted before
 * it (decision 0095). A statement runs to its end in microtasks, so each is started a macrotask after the last:
 * every message posted meanwhile is in its lane by then. A transaction's own statements and its end skip the
 * lanes: it holds the database until it ends, and so does its `begin` in the lane.
 */
const lanes = [[], []];
let running = false;

function runNext() {
  if (running || !(lanes[0].length || lanes[1].length)) return;
  running = true;
  setImmediate(async () => {
    await handle(lanes[0].shift() ?? lanes[1].shift());
    running = false;
    runNext();
  });
}

parentPort.on('message', (m) => {
  if (m.tx) return void handle(m);
  lanes[m.background ? 1 : 0].push(m);
  runNext();
});
parentPort.postMessage({ ready: true });
