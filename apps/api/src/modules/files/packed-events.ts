import type { EncodedEvent } from '@backsignal/core';
import type { PreparedEvent } from './pipeline-types.ts';

/**
 * One answer's prepared events as bytes the pipeline worker hands over (transfers) to the sending thread: every
 * event's JSON as UTF-8, back to back, with where each ends. A send moves ~800 MB of event JSON per million rows;
 * cloned as strings, all of it was rebuilt on the API's heap, survived its young generation while the batch was
 * in flight, and cost that thread ~100 MB of heap at peak and a tenth of its CPU in collection (decision 0080).
 */
export interface PackedEvents {
  utf8: Uint8Array;
  /** End offset in `utf8` of each event's JSON. */
  ends: Uint32Array;
  rowNumbers: Uint32Array;
  /** Each event's match code (core's matchCode): what Insights counts per sent batch. */
  matches: Uint16Array;
  /** Each event's fix code (core's fixCode over its row's corrections): what Insights counts as fixed. */
  fixes: Uint8Array;
  names: string[];
  ids: string[];
}

const MIN_CAPACITY = 256 * 1024;

/** The worker's side: `add` each event, then `take` the packed answer and the buffers to transfer with it. */
export function createEventPacker() {
  let buf = Buffer.allocUnsafeSlow(MIN_CAPACITY);
  let at = 0;
  let ends: number[] = [];
  let rows: number[] = [];
  let matches: number[] = [];
  let fixes: number[] = [];
  let names: string[] = [];
  let ids: string[] = [];
  return {
    add(rowNumber: number, event: EncodedEvent, match: number, fix: number) {
      // A UTF-16 unit is at most 3 bytes of UTF-8.
      const need = at + event.json.length * 3;
      if (need > buf.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(need, buf.length * 2));
        buf.copy(bigger, 0, 0, at);
        buf = bigger;
      }
      at += buf.write(event.json, at);
      ends.push(at);
      rows.push(rowNumber);
      matches.push(match);
      fixes.push(fix);
      names.push(event.event_name);
      ids.push(event.event_id);
    },
    /** The events added since the last take (null if none); the buffer is the receiver's from now on. */
    take(): { packed: PackedEvents; transfer: ArrayBuffer[] } | null {
      if (!ends.length) return null;
      const packed: PackedEvents = {
        utf8: new Uint8Array(buf.buffer, buf.byteOffset, at),
        ends: Uint32Array.from(ends),
        rowNumbers: Uint32Array.from(rows),
        matches: Uint16Array.from(matches),
        fixes: Uint8Array.from(fixes),
        names,
        ids,
      };
      const transfer = [
        buf.buffer,
        packed.ends.buffer,
        packed.rowNumbers.buffer,
        packed.matches.buffer,
        packed.fixes.buffer,
      ] as ArrayBuffer[];
      // The next answer is about as big as this one: start there, and grow rarely.
      buf = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, Math.ceil(at * 1.25)));
      at = 0;
      ends = [];
      rows = [];
      matches = [];
      fixes = [];
      names = [];
      ids = [];
      return { packed, transfer };
    },
  };
}

const decoder = new TextDecoder();

/** An event whose JSON stays bytes: the batch body copies them; `json` decodes them only if something asks. */
class PackedEvent implements EncodedEvent {
  constructor(
    readonly event_name: string,
    readonly event_id: string,
    readonly utf8: Uint8Array,
    readonly match: number,
    readonly fixes: number,
  ) {}
  get bytes(): number {
    return this.utf8.length;
  }
  get json(): string {
    return decoder.decode(this.utf8);
  }
}

/** The sending thread's side: the prepared events of one packed answer, their JSON views into its buffer. */
export function unpackEvents(p: PackedEvents): PreparedEvent[] {
  const out: PreparedEvent[] = new Array(p.ends.length);
  let start = 0;
  for (let i = 0; i < p.ends.length; i++) {
    const end = p.ends[i]!;
    out[i] = {
      rowNumber: p.rowNumbers[i]!,
      event: new PackedEvent(p.names[i]!, p.ids[i]!, p.utf8.subarray(start, end), p.matches[i]!, p.fixes[i]!),
    };
    start = end;
  }
  return out;
}
