// One half of the file through the full pipeline (see core.bench.ts), started as the API starts its pipeline
// workers: bundled, without a TypeScript loader in the thread.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { pipelineRows, rowReader } from './core-rows.ts';

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

const rows = rowReader(pipelineRows(mappings, now).onRow);
// No top-level await: the bundle is a CommonJS script.
async function main() {
  if (part === 1)
    for await (const c of createReadStream(file, { start: 0, end: headerEnd - 1 })) rows.push(c);
  for await (const c of createReadStream(file, { start, end, highWaterMark: chunk })) rows.push(c);
  parentPort!.postMessage(rows.end());
}
// Ready once loaded; the parent starts its clock, then says go.
parentPort!.once('message', () => void main());
parentPort!.postMessage('ready');
