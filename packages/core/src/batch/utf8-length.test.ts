import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.ts';
import { utf8Length } from './utf8-length.ts';

describe('utf8Length', () => {
  it('counts what Buffer.byteLength counts, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s));
      }),
      { numRuns: 300 },
    );
    expect(utf8Length('\ud800x')).toBe(Buffer.byteLength('\ud800x'));
  });
});

describe('batcher with measured events', () => {
  it('cuts on the byte count the producer measured, and on the same as its own count', () => {
    const json = '{"v":"é"}';
    const measured = (n: number) => ({ event_name: 'E', event_id: String(n), json, bytes: utf8Length(json) });
    const counted = (n: number) => ({ event_name: 'E', event_id: String(n), json });
    const cuts = (make: (n: number) => { event_name: string; event_id: string; json: string }) => {
      const b = createBatcher({ maxEvents: 1000, maxBytes: 50 });
      const sizes: number[] = [];
      for (let i = 0; i < 20; i++) {
        const batch = b.add(make(i), i + 2);
        if (batch) sizes.push(batch.events.length);
      }
      return sizes;
    };
    expect(cuts(measured)).toEqual(cuts(counted));
    expect(cuts(measured)[0]).toBe(4);
    // The measured count is what decides: a larger one cuts sooner.
    const b = createBatcher({ maxEvents: 1000, maxBytes: 50 });
    b.add({ ...counted(0), bytes: 40 }, 2);
    expect(b.add({ ...counted(1), bytes: 40 }, 3)?.events.length).toBe(1);
  });
});
