// One half of the file through the full pipeline (see core.bench.ts), started as the API starts its pipeline
// workers: bundled, without a TypeScript loader in the thread.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  createCsvReader,
  createEventWriter,
  createRowValidator,
  DEFAULT_FILE_SETTINGS,
  type CsvItem,
  type RowResult,
} from '@backsignal/core';

const { file, part, size, mappings, now, chunk } = workerData as {
  file: string;
  part: 0 | 1;
  size: number;
  mappings: Record<string, string>;
  now: number;
  chunk: number;
};

function lineStart(pos: number): number {
  if (pos === 0) return 0;
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(4096);
  readSync(fd, buf, 0, 4096, pos);
  closeSync(fd);
  return pos + buf.indexOf(10) + 1;
}
const headerEnd = lineStart(1);
const mid = lineStart(Math.floor(size / 2));
const [start, end] = part === 0 ? [0, mid - 1] : [mid, size - 1];

const reader = createCsvReader();
const write = createEventWriter();
let validate: ((values: readonly string[], rowNumber: number) => RowResult) | null = null;
let headers: string[] = [];
let n = 0;
const take = (items: CsvItem[]) => {
  for (const it of items) {
    if (it.kind === 'header') headers = it.info.headers;
    else if (it.kind === 'row') {
      n++;
      validate ??= createRowValidator({
        headers,
        mappings,
        hardcoded: { action_source: 'physical_store' },
        settings: DEFAULT_FILE_SETTINGS,
        now,
      });
      const r = validate(it.values, it.rowNumber);
      if (!r.errors.length) write(r).json.charCodeAt(0); // flattened, as core.bench.ts explains
    }
  }
};
// No top-level await: the bundle is a CommonJS script.
async function main() {
  if (part === 1)
    for await (const c of createReadStream(file, { start: 0, end: headerEnd - 1 })) take(reader.push(c));
  for await (const c of createReadStream(file, { start, end, highWaterMark: chunk })) take(reader.push(c));
  take(reader.end());
  parentPort!.postMessage(n);
}
void main();
