import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EncodedEvent } from '../events/event-writer.ts';
import { createBatcher, eventsJson, eventsJsonBytes, MAX_BATCH_EVENTS, type Batch } from './batcher.ts';

const bytesOf = (e: EncodedEvent) => new TextEncoder().encode(e.json).length + 1;
const event = (i: number, note: string): EncodedEvent => {
  const e = { event_name: 'Purchase', event_id: `e${i}`, custom_data: { note } };
  return { event_name: e.event_name, event_id: e.event_id, json: JSON.stringify(e) };
};

describe('createBatcher invariants', () => {
  it('cuts batches within the event and byte limits, each row exactly once and in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 60 }), { maxLength: 120 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 50, max: 2_000 }),
        fc.integer({ min: 2, max: 5 }),
        (notes, maxEvents, maxBytes, firstRow) => {
          const b = createBatcher({ maxEvents, maxBytes });
          const batches: Batch[] = [];
          const rows = notes.map((_, i) => firstRow + i * 2);
          notes.forEach((note, i) => {
            const out = b.add(event(i, note), rows[i]!);
            if (out) batches.push(out);
          });
          const last = b.flush();
          if (last) batches.push(last);
          expect(b.flush()).toBeNull();

          expect(batches.flatMap((x) => x.rowNumbers)).toEqual(rows);
          expect(batches.flatMap((x) => x.events.map((e) => e.event_id))).toEqual(
            notes.map((_, i) => `e${i}`),
          );
          batches.forEach((x, i) => {
            expect(x.index).toBe(i);
            expect(x.events.length).toBeGreaterThan(0);
            expect(x.events.length).toBeLessThanOrEqual(maxEvents);
            expect(x.rowNumbers).toHaveLength(x.events.length);
            expect([x.firstRow, x.lastRow]).toEqual([x.rowNumbers[0], x.rowNumbers.at(-1)]);
            expect(x.bytes).toBe(x.events.reduce((n, e) => n + bytesOf(e), 0));
            expect(eventsJson(x.events)).toBe(JSON.stringify(x.events.map((e) => JSON.parse(e.json))));
            // Only an event too big on its own may exceed the budget, alone in its batch.
            if (x.events.length > 1) expect(x.bytes).toBeLessThanOrEqual(maxBytes);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never exceeds Meta’s 1,000 events, whatever is asked', () => {
    const b = createBatcher({ maxEvents: 5_000, maxBytes: Number.MAX_SAFE_INTEGER });
    let first: Batch | null = null;
    for (let i = 0; i < 1_500 && !first; i++) first = b.add(event(i, ''), i + 2);
    expect(first?.events).toHaveLength(MAX_BATCH_EVENTS);
  });
});

// Any UTF-16 unit, lone surrogates included: they are written as U+FFFD either way.
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

describe('eventsJsonBytes', () => {
  it('is the UTF-8 of eventsJson, whatever the text and whether each event gives `bytes`, `utf8` or neither', () => {
    const given = fc.constantFrom('text', 'bytes', 'utf8');
    fc.assert(
      fc.property(fc.array(fc.tuple(anyText, given), { maxLength: 20 }), (items) => {
        const events = items.map(([t, how], i) => {
          const e = { event_name: 'Lead', event_id: `e${i}`, json: JSON.stringify({ t }) };
          if (how === 'bytes') return { ...e, bytes: Buffer.byteLength(e.json) };
          return how === 'utf8' ? { ...e, utf8: new TextEncoder().encode(e.json) } : e;
        });
        expect(Buffer.from(eventsJsonBytes(events)).equals(Buffer.from(eventsJson(events)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the whole text when `bytes` is wrong either way', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anyText, fc.integer({ min: -40, max: 40 })), { minLength: 1, maxLength: 10 }),
        (items) => {
          const events = items.map(([t, off], i) => {
            const json = JSON.stringify({ t });
            return {
              event_name: 'Lead',
              event_id: `e${i}`,
              json,
              bytes: Math.max(0, Buffer.byteLength(json) + off),
            };
          });
          expect(Buffer.from(eventsJsonBytes(events)).toString()).toBe(
            Buffer.from(eventsJson(events)).toString(),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes [] for no events', () => {
    expect(new TextDecoder().decode(eventsJsonBytes([]))).toBe('[]');
  });
});
