import Fuse from 'fuse.js';

export type Mappings = Record<string, string>;
export type HardcodedValues = Record<string, string>;

/** Spec §3 alias table (lowercased header → field). */
export const HEADER_ALIASES: Readonly<Record<string, string>> = {
  em: 'email',
  e_mail: 'email',
  mail: 'email',
  ph: 'phone',
  tel: 'phone',
  fn: 'first_name',
  first: 'first_name',
  ln: 'last_name',
  last: 'last_name',
  dob: 'db',
  dateofbirth: 'db',
  ct: 'city',
  st: 'state',
  region: 'state',
  postal: 'zip',
  postcode: 'zip',
  postal_code: 'zip',
  ip: 'client_ip_address',
  client_ip: 'client_ip_address',
  ua: 'client_user_agent',
  val: 'value',
  price: 'value',
  revenue: 'value',
  curr: 'currency',
  src: 'action_source',
  sku: 'content_ids',
  productid: 'content_ids',
  campaign: 'external_id',
  externalid: 'external_id',
};

/** The only fields suggestions may target (spec §3). */
export const SUGGESTION_TARGETS = [
  'email',
  'phone',
  'client_ip_address',
  'external_id',
  'event_id',
  'event_name',
  'event_time',
  'action_source',
  'first_name',
  'last_name',
  'db',
  'gender',
  'city',
  'state',
  'zip',
  'country',
  'client_user_agent',
  'value',
  'currency',
  'content_ids',
  'ctwa_clid',
  'fbp',
  'fbc',
] as const;

const LOOSE = new Set([
  'email',
  'phone',
  'client_ip_address',
  'external_id',
  'event_id',
  'event_name',
  'event_time',
  'action_source',
  'first_name',
  'last_name',
  'db',
]);
/** A fuzzy match is accepted at or below this score: 0.5 for the fields above, 0.1 for the rest. */
export const toleranceOf = (field: string) => (LOOSE.has(field) ? 0.5 : 0.1);

const PREFERRED_ON_TIE: readonly string[] = ['event_name', 'event_time', 'action_source'];

const fuse = new Fuse([...SUGGESTION_TARGETS], { includeScore: true, threshold: 0.4 });

/** The suggested field for one header, before the one-column-per-field rule. */
export function suggestField(header: string): string | null {
  const key = header.trim().toLowerCase();
  if (!key) return null;
  // Own keys only: a header named "constructor" must not find Object's.
  const alias = Object.hasOwn(HEADER_ALIASES, key) ? HEADER_ALIASES[key] : undefined;
  if (alias) return alias;
  const found = fuse.search(key, { limit: 3 });
  const top = found[0]?.score;
  if (top === undefined) return null;
  // 'Event' scores the same against event_id, event_name and event_time: a tie goes to a required field, never to
  // event_id (a column of event names used as ids would make Meta drop every repeat as a duplicate).
  const tied = found.filter((r) => r.score !== undefined && r.score - top < 1e-9).map((r) => r.item);
  const best = tied.find((f) => PREFERRED_ON_TIE.includes(f)) ?? tied[0]!;
  return top <= toleranceOf(best) ? best : null;
}

/**
 * Suggests a field for each header (alias first, then fuzzy); each field goes to the first header that
 * claims it. Answers column → field and field → column.
 * @example suggestMappings(['Email', 'Phone', 'tel']) // { forward: { Email: 'email', Phone: 'phone' }, ... }
 */
export function suggestMappings(headers: readonly string[]): {
  forward: Mappings;
  reverse: Record<string, string>;
} {
  const forward: Mappings = {};
  const reverse: Record<string, string> = {};
  for (const header of headers) {
    const field = suggestField(header);
    if (field && !(field in reverse)) {
      forward[header] = field;
      reverse[field] = header;
    }
  }
  return { forward, reverse };
}
