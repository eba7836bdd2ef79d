import { clean, ok, unusable, type Normalized } from './result.ts';

const US_STATES: Record<string, string> = {
  alabama: 'al', alaska: 'ak', arizona: 'az', arkansas: 'ar', california: 'ca', colorado: 'co', connecticut: 'ct',
  delaware: 'de', districtofcolumbia: 'dc', washingtondc: 'dc', florida: 'fl', georgia: 'ga', hawaii: 'hi',
  idaho: 'id', illinois: 'il', indiana: 'in', iowa: 'ia', kansas: 'ks', kentucky: 'ky', louisiana: 'la',
  maine: 'me', maryland: 'md', massachusetts: 'ma', michigan: 'mi', minnesota: 'mn', mississippi: 'ms',
  missouri: 'mo', montana: 'mt', nebraska: 'ne', nevada: 'nv', newhampshire: 'nh', newjersey: 'nj',
  newmexico: 'nm', newyork: 'ny', northcarolina: 'nc', northdakota: 'nd', ohio: 'oh', oklahoma: 'ok',
  oregon: 'or', pennsylvania: 'pa', rhodeisland: 'ri', southcarolina: 'sc', southdakota: 'sd', tennessee: 'tn',
  texas: 'tx', utah: 'ut', vermont: 'vt', virginia: 'va', washington: 'wa', westvirginia: 'wv', wisconsin: 'wi',
  wyoming: 'wy', puertorico: 'pr', guam: 'gu', americansamoa: 'as', northernmarianaislands: 'mp',
  usvirginislands: 'vi', virginislands: 'vi',
};

/**
 * st: US state names (with DC and the territories) become their 2-letter code; 2-letter input stays; other
 * regions are lowercased without punctuation or spaces, accents kept (Meta's rule for non-US states).
 * @example normalizeState('California') // { ok: true, value: 'ca', note: 'State "California" → "ca"' }
 */
export function normalizeState(raw: string): Normalized {
  const text = clean(raw);
  const v = text.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{M}]/gu, '');
  if (!v) return unusable('has no letters');
  const code = US_STATES[v];
  if (code) return ok(code, `State "${text}" → "${code}"`);
  return ok(v);
}

/**
 * zp: lowercase, no spaces or dashes; US ZIP and ZIP+4 (with or without the dash) use the first 5 digits;
 * a spreadsheet ".0" is removed; "N/A" and the like are unusable.
 * @example normalizeZip('94035-1234') // { ok: true, value: '94035' }
 */
export function normalizeZip(raw: string): Normalized {
  let v = clean(raw).toLowerCase();
  if (!v || /^(n\/?a|none|null|unknown|-+)$/.test(v)) return unusable('is empty');
  v = v.replace(/^(\d+)\.0$/, '$1');
  const us = /^(\d{5})(?:[\s-]?\d{4})?$/.exec(v);
  if (us) return ok(us[1]!, v.length > 5 ? `Zip "${raw.trim()}" shortened to the 5-digit US zip` : undefined);
  v = v.replace(/[\s-]/g, '');
  if (v.length < 2 || !/^[\p{L}\p{N}]+$/u.test(v)) return unusable('is not a postal code');
  return ok(v);
}

// Country names from the runtime's own ICU data (no table to keep up to date), plus common informal names.
const INFORMAL: Record<string, string> = {
  usa: 'us', unitedstatesofamerica: 'us', america: 'us', us: 'us', uk: 'gb', england: 'gb', scotland: 'gb',
  wales: 'gb', northernireland: 'gb', greatbritain: 'gb', britain: 'gb', holland: 'nl', thenetherlands: 'nl',
  southkorea: 'kr', korea: 'kr', russia: 'ru', vietnam: 'vn', czechia: 'cz', czechrepublic: 'cz',
  uae: 'ae', ivorycoast: 'ci', turkey: 'tr', deutschland: 'de', espana: 'es', españa: 'es', brasil: 'br',
  mexico: 'mx', méxico: 'mx', italia: 'it', schweiz: 'ch', suisse: 'ch', österreich: 'at', nederland: 'nl',
};
const ALPHA3: Record<string, string> = {
  usa: 'us', can: 'ca', mex: 'mx', gbr: 'gb', irl: 'ie', fra: 'fr', deu: 'de', esp: 'es', ita: 'it', nld: 'nl',
  bel: 'be', che: 'ch', aut: 'at', swe: 'se', nor: 'no', dnk: 'dk', fin: 'fi', pol: 'pl', prt: 'pt', aus: 'au',
  nzl: 'nz', bra: 'br', arg: 'ar', chl: 'cl', col: 'co', per: 'pe', ind: 'in', chn: 'cn', jpn: 'jp', kor: 'kr',
  sgp: 'sg', hkg: 'hk', twn: 'tw', zaf: 'za', are: 'ae', sau: 'sa', isr: 'il', tur: 'tr', phl: 'ph', idn: 'id',
  mys: 'my', tha: 'th', vnm: 'vn', egy: 'eg', nga: 'ng', ken: 'ke', grc: 'gr', cze: 'cz', hun: 'hu', rou: 'ro',
};

let countryIndex: { codes: Set<string>; names: Map<string, string> } | null = null;
function countries() {
  if (countryIndex) return countryIndex;
  const codes = new Set<string>();
  const names = new Map<string, string>();
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const squeeze = (s: string) => s.normalize('NFC').toLowerCase().replace(/[^\p{L}]/gu, '');
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = display.of(code);
      // Skip unknown, pseudo (EU, UN, XA…) and withdrawn (UK, FX, YU…) regions.
      if (!name || name === code || /^(EU|EZ|UN|Q[M-Z]|X[A-Z]|ZZ|AA|UK|FX|AN|BU|CS|DD|DY|HV|NH|NT|RH|SU|TP|YD|YU|ZR)$/.test(code)) continue;
      codes.add(code.toLowerCase());
      const key = squeeze(name);
      if (!names.has(key)) names.set(key, code.toLowerCase());
    }
  }
  countryIndex = { codes, names };
  return countryIndex;
}

/**
 * country: ISO 3166-1 alpha-2, lowercase. Names ("United States", Meta's own example), alpha-3 codes and
 * common informal names become the code (reported); anything else is unusable.
 * @example normalizeCountry('United States') // { ok: true, value: 'us', note: 'Country "United States" → "us"' }
 */
export function normalizeCountry(raw: string): Normalized {
  const text = clean(raw);
  const v = text.normalize('NFC').toLowerCase().replace(/[^\p{L}]/gu, '');
  if (!v || v === 'na' && /\//.test(text)) return unusable('is empty');
  const { codes, names } = countries();
  if (v.length === 2 && codes.has(v) && /^[a-z]{2}$/i.test(text)) return ok(v);
  const code = INFORMAL[v] ?? ALPHA3[v] ?? names.get(v) ?? (v.length === 2 && codes.has(v) ? v : undefined);
  if (!code) return unusable('is not a country');
  return ok(code, code === text.toLowerCase() ? undefined : `Country "${text}" → "${code}"`);
}
