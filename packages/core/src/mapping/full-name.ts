import type { FieldDef } from '../fields/catalogue.ts';

/**
 * The mapping target of a column that holds a whole name (decision 0097). It is no Meta parameter and not in
 * the field catalogue: validation splits each cell into first_name and last_name (normalize/full-name.ts),
 * which are hashed as fn and ln. Stored in a mapping like any field (`{ "Billing Name": "full_name" }`), so
 * templates, sources and saved mappings carry it unchanged, and mappings without it read as before.
 */
export const FULL_NAME = 'full_name';

/** How the mapping screen lists it: beside the customer-information fields it fills. */
export const FULL_NAME_FIELD: FieldDef = {
  key: FULL_NAME,
  group: 'user',
  label: 'Full name',
  description:
    'A whole name in one column ("Ana García", "Smith, John"): split into first name (fn) and last name (ln), each normalised and hashed.',
  type: 'string',
  hashed: true,
  metaKey: 'fn, ln',
  placement: 'user_data',
  required: false,
};

/**
 * Whether a column's sample values read as people's names: letters, and no digits, "@" or "#" (Shopify's
 * order "Name" is "#1001"; a "Name" column of emails is an email column). No samples says nothing against.
 */
export function looksLikeNames(samples: readonly string[]): boolean {
  return samples.every((s) => /\p{L}/u.test(s) && !/[\d@#]/.test(s));
}
