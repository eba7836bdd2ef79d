/**
 * A whole name written in one cell ("Billing Name", "Customer Name") split into first and last name, so each can
 * be normalised and hashed as fn and ln (decision 0097). The rules, in order:
 *
 * - "Last, First" when a comma separates two parts ("García Márquez, Gabriel"); a part after the comma made only
 *   of suffixes ("Smith, Jr.") is a suffix, not a first name.
 * - Titles before the name (Mr, Mrs, Dr, Prof…) and suffixes after it (Jr, III, PhD…) are dropped: they are
 *   nobody's first or last name, and Meta's profiles do not hold them.
 * - The first word is always a first name. The last name starts at the first particle after it (van, van der,
 *   de la, von, da, di, le, bin, al…), so "Vincent van der Berg" → "Vincent" + "van der Berg"; a particle with no
 *   word after it is the surname itself ("Anna Le").
 * - Otherwise the last word is the last name and every word before it the first name: "Mary Ann Smith" →
 *   "Mary Ann" + "Smith". A two-word surname without a particle ("Gabriel García Márquez") cannot be told from a
 *   middle name by the text alone; only "y"/"e" joining two surnames ("Ortega y Gasset") or the comma form says so.
 * - A single word is a first name only.
 *
 * Nothing else is lost: the first and last name hold every word that is not a dropped title or suffix, in order.
 */
export interface SplitName {
  first: string;
  last: string;
  /** The titles and suffixes left out, as written. */
  dropped: string[];
}

/** Written before a name: "Mr", "Mrs.", "Dr", "Prof", "Sr." (Señor) and their usual European forms. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'sir',
  'dame',
  'lady',
  'lord',
  'rev',
  'revd',
  'fr',
  'mme',
  'mlle',
  'mgr',
  'herr',
  'frau',
  'sr',
  'sra',
  'srta',
  'dott',
  'dhr',
  'mevr',
  'mevrouw',
]);
/** Written after a name: generations and degrees. "V" alone is left alone (an initial as often as a fifth). */
const SUFFIXES = new Set([
  'jr',
  'junior',
  'sr',
  'senior',
  'ii',
  'iii',
  'iv',
  'phd',
  'md',
  'dds',
  'dmd',
  'esq',
  'cpa',
  'mba',
  'dvm',
  'rn',
  'obe',
  'mbe',
  'cbe',
]);
/** Words that open a surname (Dutch, German, French, Spanish, Italian, Portuguese, Arabic, Malay). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'des',
  'di',
  'da',
  'das',
  'do',
  'dos',
  'du',
  'la',
  'le',
  'les',
  'lo',
  'ter',
  'ten',
  'te',
  'vom',
  'zu',
  'zum',
  'zur',
  'bin',
  'binti',
  'bint',
  'ibn',
  'al',
  'el',
  'abu',
  'st',
  'saint',
]);
/** Join two surnames: "Ortega y Gasset", "Sousa e Silva". */
const JOINERS = new Set(['y', 'e', 'i']);

const bare = (word: string) => word.toLowerCase().replace(/[.,]/g, '');
const isTitle = (word: string) => TITLES.has(bare(word));
const isSuffix = (word: string) => SUFFIXES.has(bare(word));

/** Words of a part, with titles dropped from its front and suffixes from its end (never its only word). */
function words(part: string, dropped: string[], titles: boolean, suffixes: boolean): string[] {
  const w = part.split(/\s+/).filter((t) => t !== '' && t !== ',');
  if (titles) while (w.length > 1 && isTitle(w[0]!)) dropped.push(w.shift()!);
  if (suffixes) while (w.length > 1 && isSuffix(w.at(-1)!)) dropped.unshift(w.pop()!);
  return w;
}

/** Where the last name starts in a first-name-first list of words. */
function lastNameStart(w: readonly string[]): number {
  for (let i = 1; i < w.length - 1; i++) if (PARTICLES.has(bare(w[i]!))) return i;
  const n = w.length;
  if (n >= 4 && JOINERS.has(bare(w[n - 2]!))) return n - 3;
  return n - 1;
}

/** Splits a whole name into first and last name; null when no word is left (an empty cell, only a title). */
export function splitFullName(raw: string): SplitName | null {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const dropped: string[] = [];
  const parts = text.split(',').map((p) => p.trim());
  // "Smith, Jr." and "Smith, John, PhD": parts after the first that hold only suffixes are suffixes.
  while (
    parts.length > 1 &&
    parts
      .at(-1)!
      .split(/\s+/)
      .every((t) => t === '' || isSuffix(t))
  ) {
    dropped.unshift(...parts.pop()!.split(/\s+/).filter(Boolean));
  }
  if (parts.length > 1) {
    // "Last, First": the part before the first comma is the last name, the rest the first name.
    const lastWords = words(parts[0]!, dropped, true, true);
    const firstWords = words(parts.slice(1).join(' '), dropped, true, true);
    if (!firstWords.length)
      return lastWords.length ? { first: lastWords.join(' '), last: '', dropped } : null;
    return { first: firstWords.join(' '), last: lastWords.join(' '), dropped };
  }
  const w = words(parts[0]!, dropped, true, true);
  // A title alone ("Dr") is left as it is written: a lone word is never dropped.
  if (w.length === 0) return null;
  if (w.length === 1) return { first: w[0]!, last: '', dropped };
  const at = lastNameStart(w);
  return { first: w.slice(0, at).join(' '), last: w.slice(at).join(' '), dropped };
}
