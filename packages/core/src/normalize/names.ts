import { isPlaceholder } from './placeholder.ts';
import { clean, ok, unusable, type Normalized } from './result.ts';

/**
 * fn, ln: NFC, lowercase, no punctuation or spaces (Meta: "lowercase only with no punctuation"); accents
 * and other scripts are kept as UTF-8, as in Meta's `Valéry` → `valéry` example. Placeholders ("N/A",
 * "unknown") are unusable; names that are also placeholder words ("Na", "Nil", "Blank") are kept.
 * @example normalizeName("O'Brien") // { ok: true, value: 'obrien' }
 */
export function normalizeName(raw: string): Normalized {
  if (isPlaceholder(clean(raw), 'name')) return unusable('is a placeholder, not a name');
  const v = clean(raw)
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]/gu, '');
  if (!v) return unusable('has no letters');
  // "unknown?" or "-none-" shows itself as a placeholder once its punctuation is gone.
  return isPlaceholder(v, 'name') ? unusable('is a placeholder, not a name') : ok(v);
}

/** ct: lowercase letters only (no digits, spaces or punctuation), accents kept; placeholders are unusable. */
export function normalizeCity(raw: string): Normalized {
  if (isPlaceholder(clean(raw), 'city')) return unusable('is a placeholder, not a city');
  const v = clean(raw)
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}]/gu, '');
  if (!v) return unusable('has no letters');
  return isPlaceholder(v, 'city') ? unusable('is a placeholder, not a city') : ok(v);
}

/** ge: f or m (female/male/woman/man and their initials); anything else is dropped. */
export function normalizeGender(raw: string): Normalized {
  const v = clean(raw)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (v === 'f' || v === 'female' || v === 'woman' || v === 'w') return ok('f');
  if (v === 'm' || v === 'male' || v === 'man') return ok('m');
  return unusable(v ? 'is not f or m' : 'is empty');
}

/**
 * external_id: trim and lowercase, then hashed (Meta SDK's normalizeAndHash). A placeholder ("N/A", "null",
 * "-") is unusable: sent, it would give every such row one and the same customer id.
 */
export function normalizeExternalId(raw: string): Normalized {
  const v = clean(raw).toLowerCase();
  if (!v) return unusable('is empty');
  return isPlaceholder(v) ? unusable('is a placeholder, not a customer id') : ok(v);
}
