// Words spreadsheets and CRMs write in place of a missing value. Hashing one sends Meta a real-looking match
// key that matches nobody (or, for country, "N/A" would become Namibia), so they are dropped like blanks.
const WORDS = new Set([
  'na',
  'nan',
  'none',
  'null',
  'nil',
  'unknown',
  'unk',
  'undefined',
  'tbd',
  'tba',
  'notapplicable',
  'notavailable',
  'notprovided',
  'notgiven',
  'nonapplicable',
  'blank',
  'empty',
]);

/** What the value should be: names and cities keep the placeholder words that are also real names. */
export type PlaceholderKind = 'name' | 'city' | 'other';

// Placeholder words that are also real names: "Na" (나, 那) and "Nan" are given names and surnames, "Nil" a
// Turkish given name, "Blank" a surname; "Nan" is also a city in Thailand. Such a value is kept for names and
// cities; only a literal "NaN" (a spreadsheet's "not a number") and "N/A"-like forms of "Na" are placeholders.
const REAL_WORDS: Record<PlaceholderKind, ReadonlySet<string>> = {
  name: new Set(['na', 'nan', 'nil', 'blank']),
  city: new Set(['nan']),
  other: new Set(),
};

/**
 * True for a placeholder instead of a value: "N/A", "n.a.", "#N/A", "none", "unknown", "null", "-", "?".
 * Punctuation, spaces and case do not matter. For names, a bare "Na", "Nil" or "Blank" is a name.
 */
export function isPlaceholder(text: string, kind: PlaceholderKind = 'other'): boolean {
  const t = text.trim().toLowerCase();
  if (!t) return true;
  if (kind !== 'other' && text.trim() === 'NaN') return true;
  if (/^[-–—_.?*/\\#\s]+$/.test(t)) return true;
  const word = t.replace(/[^a-z]/g, '');
  if (!word) return false;
  if (REAL_WORDS[kind].has(word)) return word === 'na' && /[/.#]/.test(t);
  return WORDS.has(word) && /^[#\s]*[a-z][a-z\s./\\'-]*$/.test(t);
}
