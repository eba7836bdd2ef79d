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

/** Fields whose names vary most between exports: a fuzzy match may stray further for them. */
const LOOSE_TARGETS = [
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
] as const;

/** The fields suggestions may target: spec §3's list, plus order_id and lead_id (decision 0050). */
export const SUGGESTION_TARGETS = [
  ...LOOSE_TARGETS,
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
  'order_id',
  'lead_id',
] as const;

const LOOSE = new Set<string>(LOOSE_TARGETS);
/** A fuzzy match is accepted at or below this score: 0.5 for the loose fields, 0.1 for the rest. */
export const toleranceOf = (field: string) => (LOOSE.has(field) ? 0.5 : 0.1);
