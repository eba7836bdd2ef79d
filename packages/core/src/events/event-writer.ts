import { FIELD_BY_KEY, type FieldDef } from '../fields/catalogue.ts';
import { sha256 } from '../hash/sha256.ts';
import { jsonString } from '../json/json-string.ts';
import type { RowResult } from '../validate/row-validator.ts';

/**
 * A server event ready to send: its JSON text, exactly what goes in the request's `data` array, and the two
 * values Meta deduplicates on, which delivery records in its ledger.
 */
export interface EncodedEvent {
  event_name: string;
  event_id: string;
  json: string;
}

/** Writes validated rows as Meta server events (see createEventWriter). */
export type EventWriter = (row: Pick<RowResult, 'effectiveRow'>) => EncodedEvent;

const SHA256_HEX = /^[0-9a-f]{64}$/i;
// What the validator writes for times and amounts: an integer of up to 10 digits, or up to 9 digits with up to
// 6 decimals, no leading or trailing zero. At most 15 significant digits, so String(Number(s)) is s itself.
// "-0" is not (it prints as 0).
const CANONICAL_NUMBER = /^(?!-0$)-?(?:0|[1-9]\d{0,9}|(?:0|[1-9]\d{0,8})\.\d{0,5}[1-9])$/;
/** A JSON number literal, as JSON.stringify writes Number(s) (NaN and infinities as null). */
const num = (s: string): string => {
  if (CANONICAL_NUMBER.test(s)) return s;
  const n = Number(s);
  return Number.isFinite(n) ? String(n) : 'null';
};
const list = (parts: string[]): string => `[${parts.map(jsonString).join(',')}]`;

/** The JSON text of a non-hashed field's value, typed as Meta expects it. */
function typedJson(key: string, def: FieldDef, value: string): string {
  if (key === 'data_processing_options') return value ? list(value.split(',')) : '[]';
  if (key === 'contents') return JSON.stringify(JSON.parse(value));
  switch (def.type) {
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

// Hashes of values that repeat across a file's rows (names, geography, gender, dates of birth) are remembered
// by the writer, per key and bounded; email, phone and customer ids are unique per person and are not.
const REPEATING_KEYS = new Set(['fn', 'ln', 'ct', 'st', 'zp', 'country', 'ge', 'db']);
const HASH_MEMO_LIMIT = 20_000;

interface Slot {
  def: FieldDef;
  /** Value → hash, for repeating hashed keys. */
  memo: Map<string, string> | null;
}

/**
 * One file's event writer: a validated row → the Meta server event as JSON text (numbers as numbers, hashed
 * customer keys as one-element arrays of SHA-256 hex; a value that already is a digest is sent lowercased,
 * never hashed twice). The text is what JSON.stringify writes for the same event, byte for byte, without
 * building the event object first.
 *
 * Create one per file and drop it with the file: it remembers the hashes of repeating values, and a customer's
 * data must never outlive their file's job.
 */
export function createEventWriter(): EventWriter {
  // Field key → its definition and, for repeating hashed keys, its memo: one lookup per cell.
  const slots = new Map<string, Slot | null>();
  const slotOf = (key: string): Slot | null => {
    let slot = slots.get(key);
    if (slot === undefined) {
      const def = FIELD_BY_KEY.get(key);
      slot = def ? { def, memo: REPEATING_KEYS.has(def.metaKey) ? new Map() : null } : null;
      slots.set(key, slot);
    }
    return slot;
  };

  const hashOf = ({ memo }: Slot, value: string): string => {
    // A digest may reach here in capitals (a row built outside the validator); Meta wants lowercase hex.
    if (value.length === 64 && SHA256_HEX.test(value)) return value.toLowerCase();
    if (!memo) return sha256(value);
    let h = memo.get(value);
    if (h === undefined) {
      h = sha256(value);
      if (memo.size >= HASH_MEMO_LIMIT) memo.clear();
      memo.set(value, h);
    }
    return h;
  };

  return ({ effectiveRow: eff }) => {
    const event_name = eff.event_name ?? '';
    const event_id = eff.event_id ?? '';
    let user = '';
    // Top-level fields after user_data, and the custom_data, app_data and original_event_data objects, in the
    // order the row first mentions them.
    const rest: Members = {};
    for (const key in eff) {
      if (key === 'event_name' || key === 'event_time' || key === 'action_source' || key === 'event_id')
        continue;
      const slot = slotOf(key);
      if (!slot) continue;
      const { def } = slot;
      const value = eff[key]!;
      if (def.hashed) {
        user += `${user ? ',' : ''}"${def.metaKey}":["${hashOf(slot, value)}"]`;
        continue;
      }
      const json = typedJson(key, def, value);
      if (def.placement === 'user_data') user += `${user ? ',' : ''}"${def.metaKey}":${json}`;
      else if (def.placement === 'top') rest[def.metaKey] = json;
      else put((rest[def.placement] ??= {}) as Members, def.metaKey, json);
    }
    const tail = objectJson(rest);
    const json =
      `{"event_name":${jsonString(event_name)},"event_time":${eff.event_time === undefined ? 'null' : num(eff.event_time)},` +
      `"action_source":${jsonString(eff.action_source ?? '')},"event_id":${jsonString(event_id)},"user_data":{${user}}` +
      (tail.length > 2 ? `,${tail.slice(1)}` : '}');
    return { event_name, event_id, json };
  };
}
