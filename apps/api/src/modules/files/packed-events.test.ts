import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { eventsJson, eventsJsonBytes } from '@backsignal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventPacker, unpackEvents, type PackedEvents } from './packed-events.ts';

const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
const event = (t: string, i: number) => ({
  event_name: i % 2 ? 'Lead' : 'Purchase',
  event_id: `id-${i}`,
  json: JSON.stringify({ t, i }),
});

/** Posts the packed answer through a real port with its transfer list, as the worker does. */
function handOver(p: { packed: PackedEvents; transfer: ArrayBuffer[] }): PackedEvents {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(p.packed, p.transfer);
  const got = receiveMessageOnPort(port2)!.message as PackedEvents;
  port1.close();
  return got;
}

describe('packed events', () => {
  it('hand over every event intact: name, id, row and the same JSON body, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 30 }), (texts) => {
        const events = texts.map(event);
        const packer = createEventPacker();
        events.forEach((e, i) => packer.add(i + 2, e, i * 37, (i * 29) & 0xff));
        const taken = packer.take()!;
        const got = unpackEvents(handOver(taken));
        // The sender's buffer is the receiver's now.
        expect(taken.packed.utf8.byteLength).toBe(0);
        expect(got.map((g) => [g.rowNumber, g.event.event_name, g.event.event_id])).toEqual(
          events.map((e, i) => [i + 2, e.event_name, e.event_id]),
        );
        expect(got.map((g) => g.event.match)).toEqual(events.map((_, i) => i * 37));
        expect(got.map((g) => g.event.fixes)).toEqual(events.map((_, i) => (i * 29) & 0xff));
        expect(got.map((g) => g.event.json)).toEqual(events.map((e) => Buffer.from(e.json).toString()));
        expect(
          Buffer.from(eventsJsonBytes(got.map((g) => g.event))).equals(Buffer.from(eventsJson(events))),
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('grows past its first buffer, and starts each answer afresh', () => {
    const packer = createEventPacker();
    expect(packer.take()).toBeNull();
    const big = event('é'.repeat(200_000), 0);
    packer.add(2, event('small', 1), 0, 0);
    packer.add(3, big, 0, 0);
    const first = unpackEvents(handOver(packer.take()!));
    expect(first.map((f) => f.event.json)).toEqual([event('small', 1).json, big.json]);
    expect(first[1]!.event.bytes).toBe(Buffer.byteLength(big.json));
    expect(packer.take()).toBeNull();
    packer.add(4, event('next', 2), 0, 0b1000_0001);
    const second = unpackEvents(handOver(packer.take()!));
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({
      rowNumber: 4,
      event: { event_id: 'id-2', json: event('next', 2).json, fixes: 0b1000_0001 },
    });
  });
});
