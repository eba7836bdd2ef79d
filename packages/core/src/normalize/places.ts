import { lookupTable } from '../lookup-table.ts';
import { ISO_3166_1 } from './iso-3166-1.ts';
import { isPlaceholder } from './placeholder.ts';
import { clean, ok, unusable, type Normalized } from './result.ts';

const US_STATES = lookupTable({
  alabama: 'al',
  alaska: 'ak',
  arizona: 'az',
  arkansas: 'ar',
  california: 'ca',
  colorado: 'co',
  connecticut: 'ct',
  delaware: 'de',
  districtofcolumbia: 'dc',
  washingtondc: 'dc',
  florida: 'fl',
  georgia: 'ga',
  hawaii: 'hi',
  idaho: 'id',
  illinois: 'il',
  indiana: 'in',
  iowa: 'ia',
  kansas: 'ks',
  kentucky: 'ky',
  louisiana: 'la',
  maine: 'me',
  maryland: 'md',
  massachusetts: 'ma',
  michigan: 'mi',
  minnesota: 'mn',
  mississippi: 'ms',
  missouri: 'mo',
  montana: 'mt',
  nebraska: 'ne',
  nevada: 'nv',
  newhampshire: 'nh',
  newjersey: 'nj',
  newmexico: 'nm',
  newyork: 'ny',
  northcarolina: 'nc',
  northdakota: 'nd',
  ohio: 'oh',
  oklahoma: 'ok',
  oregon: 'or',
  pennsylvania: 'pa',
  rhodeisland: 'ri',
  southcarolina: 'sc',
  southdakota: 'sd',
  tennessee: 'tn',
  texas: 'tx',
  utah: 'ut',
  vermont: 'vt',
  virginia: 'va',
  washington: 'wa',
  westvirginia: 'wv',
  wisconsin: 'wi',
  wyoming: 'wy',
  puertorico: 'pr',
  guam: 'gu',
  americansamoa: 'as',
  northernmarianaislands: 'mp',
  usvirginislands: 'vi',
  virginislands: 'vi',
  virginislandsus: 'vi',
  commonwealthofpuertorico: 'pr',
  unitedstatesminoroutlyingislands: 'um',
  usminoroutlyingislands: 'um',
  // The freely associated states, which have codes of their own in the FIPS table Meta's docs link.
  federatedstatesofmicronesia: 'fm',
  micronesia: 'fm',
  marshallislands: 'mh',
  palau: 'pw',
});

// The traditional (pre-1963, Associated Press and Government Printing Office) abbreviations, letters only:
// "Calif.", "W. Va.", "N. Dak.". Dotted two-letter forms ("N.Y.", "D.C.") read as codes already.
const US_STATE_ABBREVIATIONS = lookupTable({
  ala: 'al',
  ariz: 'az',
  ark: 'ar',
  calif: 'ca',
  cal: 'ca',
  colo: 'co',
  conn: 'ct',
  del: 'de',
  fla: 'fl',
  ill: 'il',
  ind: 'in',
  kans: 'ks',
  kan: 'ks',
  mass: 'ma',
  mich: 'mi',
  minn: 'mn',
  miss: 'ms',
  mont: 'mt',
  nebr: 'ne',
  neb: 'ne',
  nev: 'nv',
  nmex: 'nm',
  ndak: 'nd',
  sdak: 'sd',
  okla: 'ok',
  ore: 'or',
  oreg: 'or',
  penn: 'pa',
  penna: 'pa',
  tenn: 'tn',
  tex: 'tx',
  wash: 'wa',
  wva: 'wv',
  wis: 'wi',
  wisc: 'wi',
  wyo: 'wy',
});
// One word of up to six letters and a dot ("Calif.", "Xyz."), or a dotted pair ("W. Va."): written as an
// abbreviation. One we do not know is dropped: sent as text it would match nothing.
const DOTTED_ABBREVIATION = /^(?:\p{L}{1,4}\.\s*)?\p{L}{1,6}\.$/u;

/**
 * st: US state names (with DC and the territories) become their 2-letter code; 2-letter input stays; other
 * regions are lowercased without punctuation or spaces, accents kept (Meta's rule for non-US states).
 * Placeholders ("N/A", "none", "unknown") are unusable.
 * @example normalizeState('California') // { ok: true, value: 'ca', note: 'State "California" → "ca"' }
 */
export function normalizeState(raw: string): Normalized {
  const text = clean(raw);
  if (isPlaceholder(text)) return unusable('is a placeholder, not a state');
  const v = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}]/gu, '');
  if (!v) return unusable('has no letters');
  // "unknown?" or "-none-" shows itself as a placeholder once its punctuation is gone.
  if (isPlaceholder(v)) return unusable('is a placeholder, not a state');
  const code = US_STATES[v] ?? US_STATE_ABBREVIATIONS[v];
  if (code) return ok(code, `State "${text}" → "${code}"`);
  if (v.length > 2 && DOTTED_ABBREVIATION.test(text))
    return unusable(
      'is an abbreviation we do not recognise as a state (write the name or the 2-letter code)',
    );
  return ok(v);
}

/**
 * zp: lowercase, no spaces or dashes; US ZIP and ZIP+4 (with or without the dash) use the first 5 digits;
 * a spreadsheet ".0" is removed; placeholders ("N/A", "none", "unknown") are unusable.
 * @example normalizeZip('94035-1234') // { ok: true, value: '94035' }
 */
// Any dash: spreadsheets and word processors turn "-" into an en dash, a non-breaking hyphen or a minus sign.
const US_ZIP = /^(\d{5})(?:\s*[\p{Pd}\u2212]\s*\d{4}|\s*\d{4})?$/u;
const SPACES_AND_DASHES = /[\s\p{Pd}\u2212]/gu;
const FIVE_DIGITS = /^\d{5}$/;

export function normalizeZip(raw: string): Normalized {
  // A US ZIP as written (the usual case) is never a placeholder and has no ".0": read it at once. Written as
  // exactly five ASCII digits it is its own value, with nothing for clean() or lowercasing to change, and is
  // checked without a regex (each one costs a few hundred instructions: this runs for every row).
  if (raw.length === 5 && digitsAt(raw, 0, 5)) return ok(raw);
  if (raw.length === 10 && digitsAt(raw, 0, 5) && raw.charCodeAt(5) === 45 && digitsAt(raw, 6, 10))
    return ok(raw.slice(0, 5), `Zip "${raw}" shortened to the 5-digit US zip`);
  let v = clean(raw).toLowerCase();
  if (!v) return unusable('is empty');
  if (FIVE_DIGITS.test(v)) return ok(v);
  let us = US_ZIP.exec(v);
  if (us) return ok(us[1]!, v.length > 5 ? `Zip "${raw.trim()}" shortened to the 5-digit US zip` : undefined);
  if (isPlaceholder(v)) return unusable('is a placeholder, not a postal code');
  v = v.replace(/^(\d+)\.0$/, '$1');
  us = US_ZIP.exec(v);
  if (us) return ok(us[1]!, v.length > 5 ? `Zip "${raw.trim()}" shortened to the 5-digit US zip` : undefined);
  v = v.replace(SPACES_AND_DASHES, '');
  if (v.length < 2 || !/^[\p{L}\p{N}]+$/u.test(v)) return unusable('is not a postal code');
  return isPlaceholder(v) ? unusable('is a placeholder, not a postal code') : ok(v);
}

/** Whether s[from] … s[to - 1] are all ASCII digits. */
function digitsAt(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

// Informal names and endonyms people write for a country; ISO names and codes come from the table.
const INFORMAL = lookupTable({
  america: 'us',
  unitedstatesofamerica: 'us',
  us: 'us',
  uk: 'gb',
  england: 'gb',
  scotland: 'gb',
  wales: 'gb',
  northernireland: 'gb',
  greatbritain: 'gb',
  britain: 'gb',
  holland: 'nl',
  thenetherlands: 'nl',
  southkorea: 'kr',
  korea: 'kr',
  republicofkorea: 'kr',
  northkorea: 'kp',
  russia: 'ru',
  vietnam: 'vn',
  czechia: 'cz',
  czechrepublic: 'cz',
  uae: 'ae',
  ivorycoast: 'ci',
  turkey: 'tr',
  deutschland: 'de',
  espana: 'es',
  brasil: 'br',
  italia: 'it',
  schweiz: 'ch',
  suisse: 'ch',
  osterreich: 'at',
  nederland: 'nl',
  burma: 'mm',
  capeverde: 'cv',
  swaziland: 'sz',
  macedonia: 'mk',
  laos: 'la',
  syria: 'sy',
  iran: 'ir',
  bolivia: 'bo',
  venezuela: 've',
  tanzania: 'tz',
  moldova: 'md',
  palestine: 'ps',
  vatican: 'va',
  vaticancity: 'va',
  micronesia: 'fm',
  brunei: 'bn',
  hongkongsar: 'hk',
  macau: 'mo',
  drc: 'cd',
  drcongo: 'cd',
  democraticrepublicofcongo: 'cd',
  republicofthecongo: 'cg',
  congobrazzaville: 'cg',
  congokinshasa: 'cd',
  stkittsandnevis: 'kn',
  stlucia: 'lc',
  stvincentandthegrenadines: 'vc',
  turkiye: 'tr',
  easttimor: 'tl',
  democraticrepublicofthecongo: 'cd',
  // English names as CLDR writes them (Intl.DisplayNames, the names many systems export) where ISO's differ.
  bosnia: 'ba',
  stbarthelemy: 'bl',
  caribbeannetherlands: 'bq',
  cocosislands: 'cc',
  falklandislands: 'fk',
  southgeorgiaandsouthsandwichislands: 'gs',
  hongkongsarchina: 'hk',
  heardandmcdonaldislands: 'hm',
  stmartin: 'mf',
  myanmarburma: 'mm',
  macaosarchina: 'mo',
  stpierreandmiquelon: 'pm',
  pitcairnislands: 'pn',
  palestinianterritories: 'ps',
  sthelena: 'sh',
  sintmaarten: 'sx',
  usoutlyingislands: 'um',
  stvincentandgrenadines: 'vc',
  usvirginislands: 'vi',
});

/**
 * Lowercase letters only, accents removed, "&" read as "and": "Côte d'Ivoire", "Cote d'Ivoire" and "COTE
 * DIVOIRE" are equal, and so are "Trinidad & Tobago" and "Trinidad and Tobago".
 */
const squeeze = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z]/g, '');

// ISO's own English short names put the article last or in brackets: "Bahamas (the)", "Korea (the Republic
// of)", "Tanzania, the United Republic of", "Netherlands (Kingdom of the)". The article is not part of the name.
const withoutArticle = (s: string) => s.replace(/(?<![\p{L}\p{N}])the(?![\p{L}\p{N}])/giu, ' ');
const withoutBrackets = (s: string) => s.replace(/[([][^()[\]]*[)\]]/g, ' ');
/** "Netherlands (Kingdom of the)" → "Kingdom of the Netherlands"; null without a closing bracketed part. */
const unbracketed = (s: string) => {
  const m = /^(.+?)\s*\(([^()]+)\)\s*$/.exec(s);
  return m ? `${m[2]} ${m[1]}` : null;
};

let countryIndex: { codes: Set<string>; names: Map<string, string> } | null = null;
function countries() {
  if (countryIndex) return countryIndex;
  const codes = new Set<string>();
  const names = new Map<string, string>();
  for (const [alpha2, alpha3, ...written] of ISO_3166_1) {
    codes.add(alpha2);
    names.set(alpha3, alpha2);
    for (const name of written) names.set(squeeze(name), alpha2);
  }
  for (const [name, code] of Object.entries(INFORMAL)) if (code && !names.has(name)) names.set(name, code);
  // Then each name without its article and without its bracketed part ("Holy See (Vatican City State)" is
  // also "Holy See"), where no name above already reads so.
  for (const [alpha2, , ...written] of ISO_3166_1)
    for (const name of written)
      for (const variant of [withoutArticle(name), withoutBrackets(name)]) {
        const key = squeeze(variant);
        if (key && !names.has(key)) names.set(key, alpha2);
      }
  countryIndex = { codes, names };
  return countryIndex;
}

// Locales whose scripts the Latin-letter index cannot read: Chinese, Japanese, Korean, Cyrillic, Arabic,
// Hebrew, Greek, the Indic and other scripts. Their names come from CLDR through the runtime's ICU
// (Intl.DisplayNames, full ICU in every Node build since 13): the maintained source, not a hand list.
const NON_LATIN_LOCALES = [
  'zh',
  'zh-Hant',
  'ja',
  'ko',
  'ru',
  'uk',
  'be',
  'bg',
  'sr',
  'mk',
  'kk',
  'ky',
  'mn',
  'ar',
  'fa',
  'ur',
  'ps',
  'he',
  'yi',
  'el',
  'hi',
  'mr',
  'ne',
  'bn',
  'pa',
  'gu',
  'ta',
  'te',
  'kn',
  'ml',
  'si',
  'or',
  'th',
  'lo',
  'my',
  'km',
  'ka',
  'hy',
  'am',
];
/** Letters, marks and digits only, NFC and lowercase: "Соединённые Штаты", "ארה״ב" and "Ελλάδα" as keys. */
const letters = (s: string) =>
  s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]/gu, '');

let localIndex: Map<string, string> | null = null;
/** CLDR's long and short country names in NON_LATIN_LOCALES → code; built once, on the first such name. */
function localNames(): Map<string, string> {
  if (localIndex) return localIndex;
  localIndex = new Map();
  if (typeof Intl.DisplayNames !== 'function') return localIndex;
  for (const locale of NON_LATIN_LOCALES) {
    for (const style of ['long', 'short'] as const) {
      let names: Intl.DisplayNames;
      try {
        names = new Intl.DisplayNames([locale], { type: 'region', style, fallback: 'none' });
      } catch {
        continue; // a runtime without this locale's data
      }
      for (const [alpha2] of ISO_3166_1) {
        const name = names.of(alpha2.toUpperCase());
        const key = name && letters(name);
        if (key && !localIndex.has(key)) localIndex.set(key, alpha2);
      }
    }
  }
  return localIndex;
}
const NON_LATIN_LETTER = /[^\p{Script=Latin}\P{L}]/u;

// "Dominican Rep.", and as statistics offices write names, "Korea, Rep." and "Congo, Dem. Rep." (for "Korea,
// Republic of" and "Congo, The Democratic Republic of the").
const unabbreviated = (s: string) =>
  s.replace(/(?<![\p{L}])rep\b\.?/giu, 'Republic').replace(/(?<![\p{L}])dem\b\.?/giu, 'Democratic');

/**
 * An ISO-style name's code: without its article, with its bracketed part read first, or with "Rep." and "Dem."
 * written out (and the "of" such names drop).
 */
function isoStyleName(text: string, names: Map<string, string>): string | undefined {
  const turned = unbracketed(text);
  const spelled = squeeze(withoutArticle(unabbreviated(text)));
  return (
    names.get(squeeze(withoutArticle(text))) ??
    (turned === null ? undefined : names.get(squeeze(withoutArticle(turned)))) ??
    names.get(spelled) ??
    names.get(`${spelled}of`)
  );
}

const NOT_A_COUNTRY = 'is not a country we recognise';

/**
 * country: ISO 3166-1 alpha-2, lowercase. ISO short names ("Korea, Republic of", or as ISO writes them
 * today, "Korea (the Republic of)"), common names ("South Korea"), official names, alpha-3 codes and common
 * informal names become the code (reported), whatever their accents, case or punctuation. Placeholders such
 * as "N/A" or "N.A." are unusable, never Namibia.
 * @example normalizeCountry('United States') // { ok: true, value: 'us', note: 'Country "United States" → "us"' }
 */
export function normalizeCountry(raw: string): Normalized {
  const text = clean(raw);
  const { codes, names } = countries();
  // A bare two-letter code is a code, even "NA" (Namibia); written with dots or a slash it is a placeholder.
  if (/^[a-z]{2}$/i.test(text) && codes.has(text.toLowerCase())) return ok(text.toLowerCase());
  if (isPlaceholder(text)) return unusable(text ? 'is a placeholder, not a country' : 'is empty');
  const v = squeeze(text);
  // "The Bahamas", "The Gambia": the article is not part of the name.
  const code =
    (v
      ? (names.get(v) ??
        (v.startsWith('the') ? names.get(v.slice(3)) : undefined) ??
        isoStyleName(text, names) ??
        (v.length === 2 && codes.has(v) ? v : undefined))
      : undefined) ?? (NON_LATIN_LETTER.test(text) ? localNames().get(letters(text)) : undefined);
  if (!code) return unusable(NOT_A_COUNTRY);
  return ok(code, code === text.toLowerCase() ? undefined : `Country "${text}" → "${code}"`);
}
