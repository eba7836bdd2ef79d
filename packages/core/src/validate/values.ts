import { ACTION_SOURCES } from '../fields/catalogue.ts';
import { lookupTable } from '../lookup-table.ts';
import { readAmount, type DecimalSeparator } from './amount.ts';

export const STANDARD_EVENTS = [
  'AddPaymentInfo',
  'AddToCart',
  'AddToWishlist',
  'CompleteRegistration',
  'Contact',
  'CustomizeProduct',
  'Donate',
  'FindLocation',
  'InitiateCheckout',
  'Lead',
  'Purchase',
  'Schedule',
  'Search',
  'StartTrial',
  'SubmitApplication',
  'Subscribe',
  'ViewContent',
] as const;
const squash = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');
const STANDARD_BY_SQUASHED = new Map<string, string>(STANDARD_EVENTS.map((e) => [squash(e), e]));

/** Meta's standard event names are canonicalised ('purchase', 'add to cart'); custom names are kept. */
export function canonicalEventName(raw: string): { value: string; note?: string } | null {
  const v = raw.trim();
  if (!v) return null;
  const standard = STANDARD_BY_SQUASHED.get(squash(v));
  if (standard)
    return standard === v ? { value: v } : { value: standard, note: `event_name "${v}" → "${standard}"` };
  return { value: v };
}

const SOURCE_VARIANTS = lookupTable({
  store: 'physical_store',
  instore: 'physical_store',
  offline: 'physical_store',
  pos: 'physical_store',
  retail: 'physical_store',
  shop: 'physical_store',
  physicalstore: 'physical_store',
  phone: 'phone_call',
  call: 'phone_call',
  phonecall: 'phone_call',
  telephone: 'phone_call',
  calls: 'phone_call',
  web: 'website',
  online: 'website',
  site: 'website',
  ecommerce: 'website',
  website: 'website',
  mail: 'email',
  email: 'email',
  emailmarketing: 'email',
  crm: 'system_generated',
  system: 'system_generated',
  systemgenerated: 'system_generated',
  automated: 'system_generated',
  mobileapp: 'app',
  application: 'app',
  messaging: 'chat',
  whatsapp: 'chat',
  messenger: 'chat',
  businessmessaging: 'business_messaging',
});
/** Every action_source Meta takes: the spec's select offers all but business_messaging (meta-capi.md §1.4). */
export const META_ACTION_SOURCES: readonly string[] = [...ACTION_SOURCES, 'business_messaging'];
const SOURCES = new Set(META_ACTION_SOURCES);

/** One of Meta's action_source values; obvious variants ('In Store', 'Phone', 'CRM') are corrected. */
export function canonicalActionSource(raw: string): { value: string; note?: string } | null {
  const v = raw.trim();
  const lower = v.toLowerCase().replace(/[\s-]+/g, '_');
  if (SOURCES.has(lower))
    return lower === v ? { value: lower } : { value: lower, note: `action_source "${v}" → "${lower}"` };
  // Variants are looked up by their letters alone: "Web Site", "web-site", "E-mail" and "e mail" are found.
  const variant = SOURCE_VARIANTS[lower.replace(/[^a-z]/g, '')];
  return variant ? { value: variant, note: `action_source "${v}" → "${variant}"` } : null;
}

/** A money amount, or null; see readAmount for the formats and how ambiguous separators are read. */
export function parseAmount(raw: string, decimal?: DecimalSeparator): number | null {
  return readAmount(raw, decimal)?.value ?? null;
}

let currencies: Set<string> | null = null;
/** ISO 4217 codes known to the runtime. */
export function isCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

const CURRENCY_SYMBOLS = lookupTable({
  $: 'USD',
  us$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  c$: 'CAD',
  a$: 'AUD',
  '¥': 'JPY',
  '₹': 'INR',
});
export function canonicalCurrency(raw: string): { value: string; note?: string } | null {
  const v = raw.trim();
  const upper = v.toUpperCase();
  // "usd" is USD written in lower case: read, not corrected (issue 29), like "$1,200.00" for 1200.
  if (isCurrency(upper)) return { value: upper };
  const sym = CURRENCY_SYMBOLS[v.toLowerCase()];
  return sym ? { value: sym, note: `currency "${v}" → "${sym}"` } : null;
}

/** content_ids and other lists: split on commas or pipes, trimmed, blanks dropped. */
export const splitList = (raw: string): string[] =>
  raw
    .split(/[,|]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function parseBoolean(raw: string): boolean | null {
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'y'].includes(v)) return true;
  if (['false', '0', 'no', 'n'].includes(v)) return false;
  return null;
}

export function parseInteger(raw: string): number | null {
  const v = raw.trim().replace(/\.0+$/, '');
  return /^-?\d+$/.test(v) ? Number(v) : null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** IPv4 or IPv6 (without brute-force regex: bounded work on any input). */
export function isIpAddress(v: string): boolean {
  if (IPV4.test(v)) return true;
  if (v.length > 45 || !v.includes(':')) return false;
  const [head, tail] = v.split('%');
  if (tail !== undefined && !/^[\w.]+$/.test(tail)) return false;
  const addr = head!;
  let groups = addr.split(':');
  const v4 = groups.at(-1)!.includes('.') ? groups.pop()! : null;
  if (v4 !== null && !IPV4.test(v4)) return false;
  const max = v4 ? 6 : 8;
  const double = addr.indexOf('::');
  if (double !== addr.lastIndexOf('::')) return false;
  if (double === -1 && groups.length !== max) return false;
  if (double !== -1) groups = groups.filter((g) => g !== '');
  if (groups.length > max || (double !== -1 && groups.length === max)) return false;
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g));
}

export const FBC = /^fb\.\d\.\d{10,13}\.\S+$/;
export const FBP = /^fb\.\d\.\d{10,13}\.\d+$/;
export const LEAD_ID = /^\d{15,17}$/;
