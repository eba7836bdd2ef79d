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
// "Na" (나, 那) and "Nan" are real names, so for names only "N/A"-like forms and a literal "NaN" count.
const NAME_WORDS = new Set([...WORDS].filter((w) => w !== 'na' && w !== 'nan'));

/**
 * True for a placeholder instead of a value: "N/A", "n.a.", "#N/A", "none", "unknown", "null", "-", "?".
 * Punctuation, spaces and case do not matter. `forNames` keeps a bare "Na", which is a surname.
 */
export function isPlaceholder(text: string, forNames = false): boolean {
  const t = text.trim().toLowerCase();
  if (!t) return true;
  if (forNames && text.trim() === 'NaN') return true;
  if (/^[-–—_.?*/\\#\s]+$/.test(t)) return true;
  const word = t.replace(/[^a-z]/g, '');
  if (!word) return false;
  if (word === 'na' && forNames) return /[/.#]/.test(t);
  return (forNames ? NAME_WORDS : WORDS).has(word) && /^[#\s]*[a-z][a-z\s./\\'-]*$/.test(t);
}
