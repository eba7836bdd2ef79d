import { FIELD_BY_KEY, type FieldDef, type Placement } from '../fields/catalogue.ts';
import { sha256 } from '../hash/sha256.ts';
import { isCanonicalNumber } from '../json/json-number.ts';
import { jsonString, jsonStringBody } from '../json/json-string.ts';
import { matchPart, packMatch } from '../quality/match-keys.ts';
import type { RowResult } from '../validate/row-validator.ts';

/**
 * A server event ready to send: its JSON text, exactly what goes in the request's `data` array, and the two
 * values Meta deduplicates on, which delivery records in its ledger.
 */
export interface EncodedEvent {
  event_name: string;
  event_id: string;
  json: string;
  /**
   * UTF-8 bytes of `json`, when its producer measured them natively (the pipeline worker uses
   * Buffer.byteLength): the batcher then skips its JavaScript count on the sending thread.
   */
  bytes?: number;
  /**
   * `json` already encoded as UTF-8, when its producer has the bytes (the send's events come from the pipeline
   * worker as bytes): a batch's body is then copied from them, and `json` is decoded only if something reads it.
   */
  utf8?: Uint8Array;
  /** The event's match code (core's matchCode), when its producer computed it: a send's, for Insights. */
  match?: number;
  /** The event's fix code (core's fixCode over its row's corrections), when its producer computed it: a send's. */
  fixes?: number;
}

/** Writes validated rows as Meta server events (see createEventWriter), each with its match code. */
export type EventWriter = (row: Pick<RowResult, 'effectiveRow'>) => EncodedEvent & { match: number };

const SHA256_HEX = /^[0-9a-f]{64}$/i;
/** A JSON number literal, as JSON.stringify writes Number(s) (NaN and infinities as null). */
const num = (s: string): string => {
  if (isCanonicalNumber(s)) return s;
  const n = Number(s);
  return Number.isFinite(n) ? String(n) : 'null';
};
const list = (parts: string[]): string => `[${parts.map(jsonString).join(',')}]`;

/** The JSON text of a non-hashed field's value, typed as Meta expects it. */
function typedJson(key: string, def: FieldDef, value: string): string {
  if (key === 'data_processing_options') return value ? list(value.split(',')) : '[]';
  switch (def.type) {
    case 'json':
      // contents and extinfo hold JSON text already (see parseContents and parseExtinfo).
      return JSON.stringify(JSON.parse(value));
    case 'number':
    case 'integer':
    case 'timestamp':
      return num(value);
    case 'boolean':
      return value === 'true' ? 'true' : 'false';
    case 'list':
      return list(value.split(','));
    case 'enum':
      // app_data flags are numeric in Meta's API.
      return def.placement === 'app_data' ? num(value) : jsonString(value);
    default:
      return jsonString(value);
  }
}

/** Members of a JSON object as JSON text, in insertion order (the order JSON.stringify would write them). */
type Members = { [key: string]: string | Members };

function put(target: Members, metaKey: string, json: string): void {
  const dot = metaKey.indexOf('.');
  if (dot === -1) target[metaKey] = json;
  else put((target[metaKey.slice(0, dot)] ??= {}) as Members, metaKey.slice(dot + 1), json);
}

function objectJson(members: Members): string {
  let out = '';
  for (const key in members) {
    const v = members[key]!;
    out += `${out ? ',' : ''}"${key}":${typeof v === 'string' ? v : objectJson(v)}`;
  }
  return `{${out}}`;
}

// The hashed members of values that repeat across a file's rows (names, city, state, country, gender, dates of
// birth) are remembered by the writer, per key and bounded. Email, phone and customer ids are unique per person,
// and a national file has tens of thousands of ZIPs: a memo of those mostly misses, and each miss it keeps
// survives into the old generation (on the bench, the two-thread peak RSS was ~28 MB higher with zp memoised, for
// no speed).
const REPEATING_KEYS = new Set(['fn', 'ln', 'ct', 'st', 'country', 'ge', 'db']);
const MEMO_LIMIT = 20_000;

/** Remembers `pieces` joined under `key` in a bounded memo: one flat string, which every later row copies as is. */
function remember(memo: Map<string, string>, key: string, pieces: string[]): string {
  const text = pieces.join('');
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, text);
  return text;
}
/** Pieces before the first user_data member (see `parts`). */
const USER_START = 5;
const FIXED_KEYS = new Set(['event_name', 'event_time', 'action_source', 'event_id']);

// Where a field's member goes: user_data (hashed or not), the top level, or one of the nested objects.
const USER_HASHED = 0;
const USER_PLAIN = 1;
const TOP = 2;
const GROUPS: readonly Placement[] = ['custom_data', 'app_data', 'original_event_data'];
/** A dotted metaKey ('mileage.unit') nests one object deeper: such rows take the general path. */
const NESTED = -1;
/** event_name, event_time, action_source and event_id: written first, in their fixed places. */
const FIXED = -2;

interface Slot {
  def: FieldDef;
  /**
   * Value → the whole member after a comma: `,"fn":["<hash>"]` for repeating hashed keys, and `,"currency":"USD"`
   * for the enumerated members of custom_data, app_data and original_event_data (a few values each).
   */
  memo: Map<string, string> | null;
  /** USER_HASHED, USER_PLAIN, TOP, NESTED, FIXED, or 3 + the index of its object in GROUPS. */
  where: number;
  /** The member's opening text: `"em":["` for a hashed key, else `"value":`; and with a comma before it. */
  open: string;
  nextOpen: string;
  /** For a member of custom_data, app_data or original_event_data: its object's opening, then its own. */
  groupOpen: string;
  /** What the field adds to the event's match code (matchPart): 0 and 0 for a field that does not help. */
  matchBit: number;
  matchTenths: number;
}

function slotFor(def: FieldDef): Slot {
  const where = FIXED_KEYS.has(def.key)
    ? FIXED
    : def.metaKey.includes('.')
      ? NESTED
      : def.placement === 'user_data'
        ? def.hashed
          ? USER_HASHED
          : USER_PLAIN
        : def.placement === 'top'
          ? TOP
          : 3 + GROUPS.indexOf(def.placement);
  const open = `"${def.metaKey}":${def.hashed ? '["' : ''}`;
  return {
    def,
    memo:
      (def.hashed && REPEATING_KEYS.has(def.metaKey)) || (where >= 3 && def.type === 'enum')
        ? new Map()
        : null,
    where,
    open,
    nextOpen: `,${open}`,
    groupOpen: where >= 3 ? `,"${def.placement}":{${open}` : '',
    matchBit: matchPart(def.key).bit,
    matchTenths: matchPart(def.key).tenths,
  };
}

/**
 * One file's event writer: a validated row → the Meta server event as JSON text (numbers as numbers, hashed
 * customer keys as one-element arrays of SHA-256 hex; a value that already is a digest is sent lowercased,
 * never hashed twice). The text is what JSON.stringify writes for the same event, byte for byte, without
 * building the event object first.
 *
 * It also answers the event's match code (core's matchCode, for Insights), from the fields it writes anyway:
 * matchCode's lookup of every weighted key per row cost 9 % of a send's per-row work (decision 0110).
 *
 * Create one per file and drop it with the file: it remembers the hashes of repeating values, and a customer's
 * data must never outlive their file's job.
 */
export function createEventWriter(): EventWriter {
  // Field key → how its member is written and, for repeating hashed keys, its memo: one lookup per cell.
  const slots = new Map<string, Slot | null>();
  const slotOf = (key: string): Slot | null => {
    let slot = slots.get(key);
    if (slot === undefined) {
      const def = FIELD_BY_KEY.get(key);
      slot = def ? slotFor(def) : null;
      slots.set(key, slot);
    }
    return slot;
  };
  const seenKeys: string[] = [];
  const seenSlots: (Slot | null)[] = [];

  const hashOf = (value: string): string =>
    // A digest may reach here in capitals (a row built outside the validator); Meta wants lowercase hex.
    value.length === 64 && SHA256_HEX.test(value) ? value.toLowerCase() : sha256(value);
  /** `,"fn":["<hash>"]` for a repeating value: one remembered piece instead of three. */
  const memoMember = (slot: Slot, memo: Map<string, string>, value: string): string =>
    memo.get(value) ?? remember(memo, value, [slot.nextOpen, hashOf(value), '"]']);
  // The text around event_name and action_source, remembered per value: a file has few of either.
  const heads = new Map<string, string>();
  const head = (name: string): string =>
    heads.get(name) ?? remember(heads, name, ['{"event_name":', jsonString(name), ',"event_time":']);
  const sources = new Map<string, string>();
  const source = (value: string): string =>
    sources.get(value) ?? remember(sources, value, [',"action_source":', jsonString(value), ',"event_id":"']);

  /** Rows with a nested member: objects of members first, then their text (rare: mileage.*). */
  const nestedTail = (eff: Record<string, string>): string => {
    const rest: Members = {};
    for (const key in eff) {
      const slot = slotOf(key);
      if (!slot || slot.where === FIXED || slot.where === USER_HASHED || slot.where === USER_PLAIN) continue;
      const { def } = slot;
      const json = typedJson(key, def, eff[key]!);
      put(def.placement === 'top' ? rest : ((rest[def.placement] ??= {}) as Members), def.metaKey, json);
    }
    return objectJson(rest).slice(1, -1);
  };

  // The event's text in pieces, joined once at the end (concatenating would build a rope of ~30 pieces that its
  // first reader has to flatten). One array serves every row of the file: its fixed pieces are written once.
  // event_id's quotes are in the pieces on either side of it (`,"event_id":"` and `","user_data":{`): its
  // own piece is then the id itself, not a new quoted copy to concatenate and flatten for every row.
  const parts = ['', '', '', '', '","user_data":{'];
  // After user_data: the top-level members and the custom_data, app_data and original_event_data objects, in the
  // order the row first mentions them. `tail` lists them: a GROUPS index for an object, whose member pieces are
  // in `groups`, or -1 - the index in `top` of a top-level member's pieces. Reused, like `parts`, row after row.
  const tail: number[] = [];
  const top: string[] = [];
  const groups: string[][] = [[], [], []];
  const groupCount = [0, 0, 0];

  return ({ effectiveRow: eff }) => {
    const event_name = eff.event_name ?? '';
    const event_id = eff.event_id ?? '';
    parts[0] = head(event_name);
    parts[1] = eff.event_time === undefined ? 'null' : num(eff.event_time);
    parts[2] = source(eff.action_source ?? '');
    parts[3] = jsonStringBody(event_id);
    let n = USER_START;
    let tailCount = 0;
    let topCount = 0;
    groupCount[0] = groupCount[1] = groupCount[2] = 0;
    let nested = false;
    let matchBits = 0;
    let matchTenths = 0;
    let i = 0;
    for (const key in eff) {
      // Rows of a file list their fields in the same order: the previous row's slot at this position is
      // almost always this one, found without a map lookup.
      let slot: Slot | null;
      if (seenKeys[i] === key) slot = seenSlots[i]!;
      else {
        slot = slotOf(key);
        seenKeys[i] = key;
        seenSlots[i] = slot;
      }
      i++;
      if (!slot || slot.where === FIXED) continue;
      const where = slot.where;
      if (where === USER_HASHED || where === USER_PLAIN) {
        const value = eff[key]!;
        // Every field that helps matching is a user_data member; an empty value is not carried (matchCode).
        if (value) {
          matchBits |= slot.matchBit;
          matchTenths += slot.matchTenths;
        }
        const first = n === USER_START;
        if (slot.memo) {
          const m = memoMember(slot, slot.memo, value);
          parts[n++] = first ? m.slice(1) : m;
          continue;
        }
        parts[n++] = first ? slot.open : slot.nextOpen;
        if (where === USER_HASHED) {
          parts[n++] = hashOf(value);
          parts[n++] = '"]';
        } else parts[n++] = typedJson(key, slot.def, value);
        continue;
      }
      if (where === NESTED) {
        nested = true;
        continue;
      }
      if (where === TOP) {
        tail[tailCount++] = -1 - topCount;
        top[topCount++] = slot.nextOpen;
        top[topCount++] = typedJson(key, slot.def, eff[key]!);
      } else {
        const g = where - 3;
        const count = groupCount[g]!;
        // An enumerated member after the object's first: one remembered piece, with no escape test or quoting.
        if (count !== 0 && slot.memo) {
          const value = eff[key]!;
          groups[g]![count] =
            slot.memo.get(value) ??
            remember(slot.memo, value, [slot.nextOpen, typedJson(key, slot.def, value)]);
          groupCount[g] = count + 1;
          continue;
        }
        const json = typedJson(key, slot.def, eff[key]!);
        if (count === 0) tail[tailCount++] = g;
        groups[g]![count] = count === 0 ? slot.groupOpen : slot.nextOpen;
        groups[g]![count + 1] = json;
        groupCount[g] = count + 2;
      }
    }
    parts[n++] = '}';
    if (nested) parts[n++] = `,${nestedTail(eff)}`;
    else
      for (let t = 0; t < tailCount; t++) {
        const g = tail[t]!;
        if (g < 0) {
          parts[n++] = top[-1 - g]!;
          parts[n++] = top[-g]!;
        } else {
          const pieces = groups[g]!;
          for (let p = 0; p < groupCount[g]!; p++) parts[n++] = pieces[p]!;
          parts[n++] = '}';
        }
      }
    parts[n++] = '}';
    // Rows of a file have about as many pieces, so shortening by a few keeps the array's storage for the next.
    // Most rows have as many as the one before: setting the length is a runtime call even when it is unchanged.
    if (parts.length !== n) parts.length = n;
    const json = parts.join('');
    return { event_name, event_id, json, match: packMatch(matchBits, matchTenths) };
  };
}
