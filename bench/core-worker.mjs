// One half of the file through the full pipeline (see core.bench.ts).
import { register } from 'tsx/esm/api';
import { workerData, parentPort } from 'node:worker_threads';
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';

register();
const { createCsvReader, createEventWriter, createRowValidator, DEFAULT_FILE_SETTINGS } =
  await import('@backsignal/core');
const { file, part, size, mappings, now, chunk } = workerData;

function lineStart(pos) {
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
let validate = null;
const write = createEventWriter();
let headers = [];
let n = 0;
const take = (items) => {
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
if (part === 1)
  for await (const c of createReadStream(file, { start: 0, end: headerEnd - 1 })) take(reader.push(c));
for await (const c of createReadStream(file, { start, end, highWaterMark: chunk })) take(reader.push(c));
take(reader.end());
parentPort.postMessage(n);
