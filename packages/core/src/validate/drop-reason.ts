/**
 * Why a customer value could not be used, as a code the UI and the report group by. A dropped value is not a
 * correction: the event is sent without it, so the marketer must hear about it apart from harmless rewrites.
 */
export const DROP_REASONS = [
  'accented_letters',
  'placeholder',
  'scientific_notation',
  'empty_hash',
  'wrong_format',
  'invalid',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The code for a value dropped from `field`, from the value and the normaliser's reason text. Only emails are
 * refused for accented letters (names and cities are transliterated); placeholders, spreadsheet-mangled phones
 * and the hash of nothing are told apart because each has its own fix in the source system.
 */
export function dropReason(field: string, value: string, reason: string): DropReason {
  if (reason.includes('hash of an empty value')) return 'empty_hash';
  if (reason.includes('placeholder')) return 'placeholder';
  if (reason.includes('scientific notation')) return 'scientific_notation';
  if (field === 'email' && NON_ASCII.test(value)) return 'accented_letters';
  if (field === 'fbc' || field === 'fbp') return 'wrong_format';
  return 'invalid';
}

/** The one-line reason a row shows: "it has accented letters Meta does not accept". */
export function dropSentence(code: DropReason, reason: string): string {
  return code === 'accented_letters' ? 'it has accented letters Meta does not accept' : `it ${reason}`;
}

// Singular and plural nouns for the fields a value can be dropped from.
const NOUNS: Record<string, [string, string]> = {
  email: ['email', 'emails'],
  phone: ['phone number', 'phone numbers'],
  first_name: ['first name', 'first names'],
  last_name: ['last name', 'last names'],
  full_name: ['full name', 'full names'],
  db: ['date of birth', 'dates of birth'],
  gender: ['gender', 'genders'],
  city: ['city', 'cities'],
  state: ['state', 'states'],
  zip: ['postal code', 'postal codes'],
  country: ['country', 'countries'],
  external_id: ['customer id', 'customer ids'],
  client_ip_address: ['IP address', 'IP addresses'],
  fbc: ['fbc click id', 'fbc click ids'],
  fbp: ['fbp browser id', 'fbp browser ids'],
};

const noun = (field: string, count: number): string => {
  const n = NOUNS[field] ?? [field, `${field} values`];
  return count === 1 ? n[0] : n[1];
};

/** What the reason is, in a marketer's words, for a count of values. */
function reasonText(field: string, code: DropReason, count: number): string {
  switch (code) {
    case 'accented_letters':
      return 'accented letters Meta does not accept';
    case 'placeholder':
      return count === 1 ? 'a placeholder, not a real value' : 'placeholders, not real values';
    case 'scientific_notation':
      return 'digits lost in a spreadsheet (scientific notation)';
    case 'empty_hash':
      return 'the hash of an empty value';
    case 'wrong_format':
      return "not in Meta's fb.1.<time>.<id> format";
    case 'invalid':
      return `not a valid ${noun(field, 1)}`;
  }
}

/**
 * The file-level line for one field and reason: "139 emails can't be used: accented letters Meta does not
 * accept". The events are still sent, without these values.
 */
export function describeDrops(field: string, code: DropReason, count: number): string {
  return `${count.toLocaleString('en-US')} ${noun(field, count)} can't be used: ${reasonText(field, code, count)}`;
}
