import type { Batch, EncodedEvent } from '@backsignal/core';
import { describe, expect, it } from 'vitest';
import { readBatches } from './delivery.read-batches.ts';
import { ledgerKey } from './delivery.repo.ts';

const event = (id: string): EncodedEvent => ({
  event_name: 'Lead',
  event_id: id,
  json: `{"event_name":"Lead","event_id":"${id}"}`,
});
async function* file(n: number) {
  for (let i = 0; i < n; i++) yield { rowNumber: i + 2, event: event(`e${i}`) };
}

function collect(opts: Partial<Parameters<typeof readBatches>[0]> & { rows: number }) {
  const batches: Batch[] = [];
  return {
    batches,
    read: readBatches({
      events: file(opts.rows),
      delivered: null,
      batchSize: 100,
      stopped: () => false,
      push: async (b) => void batches.push(b),
      ...opts,
    }),
  };
}

describe('readBatches', () => {
  it('cuts the file into batches in order, the last one short', async () => {
    const { batches, read } = collect({ rows: 250 });
    expect(await read).toEqual({ total: 250, skipped: 0, readToEnd: true });
    expect(batches.map((b) => [b.index, b.events.length, b.firstRow, b.lastRow])).toEqual([
      [0, 100, 2, 101],
      [1, 100, 102, 201],
      [2, 50, 202, 251],
    ]);
  });

  it('leaves out what the pixel already received, looking up 500 events at a time', async () => {
    const lookups: number[] = [];
    const { batches, read } = collect({
      rows: 1_200,
      delivered: async (ids) => {
        lookups.push(ids.length);
        return new Set(ids.filter((id) => Number(id.slice(1)) % 3 === 0).map((id) => ledgerKey('Lead', id)));
      },
    });
    expect(await read).toEqual({ total: 1_200, skipped: 400, readToEnd: true });
    expect(lookups).toEqual([500, 500, 200]);
    const sent = batches.flatMap((b) => b.events.map((e) => e.event_id));
    expect(sent).toHaveLength(800);
    expect(sent.every((id) => Number(id.slice(1)) % 3 !== 0)).toBe(true);
  });

  it('ends early, without a plan, once the run stopped', async () => {
    let n = 0;
    const { read } = collect({ rows: 1_000, stopped: () => ++n > 600 });
    expect(await read).toMatchObject({ readToEnd: false });
  });
});
