import { FIELD_BY_KEY, type FieldDef } from '../fields/catalogue.ts';
import { sha256 } from '../hash/sha256.ts';
import type { RowResult } from '../validate/row-validator.ts';

export interface ServerEvent {
  event_name: string;
  event_time: number;
  action_source: string;
  event_id: string;
  user_data: Record<string, unknown>;
  custom_data?: Record<string, unknown>;
  app_data?: Record<string, unknown>;
  original_event_data?: Record<string, unknown>;
  [k: string]: unknown;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

// Hashes of values that repeat across rows (geography, gender) are remembered; personal identifiers are not.
const CACHED_KEYS = new Set(['ct', 'st', 'zp', 'country', 'ge']);
const hashCache = new Map<string, string>();
function hashOf(metaKey: string, value: string): string {
  // A digest may reach here in capitals (a row built outside the validator); Meta wants lowercase hex.
  if (value.length === 64 && SHA256_HEX.test(value)) return value.toLowerCase();
  if (!CACHED_KEYS.has(metaKey)) return sha256(value);
  let h = hashCache.get(value);
  if (!h) {
    h = sha256(value);
    if (hashCache.size >= 20_000) hashCache.clear();
    hashCache.set(value, h);
  }
  return h;
}

function typed(key: string, def: FieldDef, value: string): unknown {
  if (key === 'data_processing_options') return value ? value.split(',') : [];
  if (key === 'contents') return JSON.parse(value) as unknown;
  switch (def.type) {
    case 'number':
    case 'integer':
    case 'timestamp':
      return Number(value);
    case 'boolean':
      return value === 'true';
    case 'list':
      return value.split(',');
    case 'enum':
      // app_data flags are numeric in Meta's API.
      return def.placement === 'app_data' ? Number(value) : value;
    default:
      return value;
  }
}

function put(target: Record<string, unknown>, metaKey: string, value: unknown) {
  const dot = metaKey.indexOf('.');
  if (dot === -1) target[metaKey] = value;
  else {
    const parent = metaKey.slice(0, dot);
    const child = (target[parent] ??= {}) as Record<string, unknown>;
    child[metaKey.slice(dot + 1)] = value;
  }
}

/**
 * A Meta server event from a validated row: numbers as numbers, hashed customer keys as one-element arrays of
 * SHA-256 hex (values that already are a digest are sent as they are, never hashed twice).
 */
export function buildEvent(row: Pick<RowResult, 'effectiveRow'>): ServerEvent {
  const eff = row.effectiveRow;
  const event: ServerEvent = {
    event_name: eff.event_name ?? '',
    event_time: Number(eff.event_time),
    action_source: eff.action_source ?? '',
    event_id: eff.event_id ?? '',
    user_data: {},
  };
  for (const key in eff) {
    const value = eff[key]!;
    if (key === 'event_name' || key === 'event_time' || key === 'action_source' || key === 'event_id')
      continue;
    const def = FIELD_BY_KEY.get(key);
    if (!def) continue;
    if (def.hashed) {
      event.user_data[def.metaKey] = [hashOf(def.metaKey, value)];
      continue;
    }
    const v = typed(key, def, value);
    switch (def.placement) {
      case 'top':
        event[def.metaKey] = v;
        break;
      case 'user_data':
        event.user_data[def.metaKey] = v;
        break;
      case 'custom_data':
        put((event.custom_data ??= {}), def.metaKey, v);
        break;
      case 'app_data':
        put((event.app_data ??= {}), def.metaKey, v);
        break;
      case 'original_event_data':
        put((event.original_event_data ??= {}), def.metaKey, v);
        break;
    }
  }
  return event;
}
