import { describe, expect, it } from 'vitest';
import { ISO_3166_1 } from './iso-3166-1.ts';
import { normalizeCountry } from './places.ts';

const value = (raw: string) => {
  const r = normalizeCountry(raw);
  return r.ok ? r.value : null;
};

describe('country', () => {
  it.each([
    // alpha-3 codes
    ['PAK', 'pk'],
    ['RUS', 'ru'],
    ['UKR', 'ua'],
    ['PRI', 'pr'],
    ['LUX', 'lu'],
    ['BGD', 'bd'],
    ['usa', 'us'],
    ['GBR', 'gb'],
    // ISO short names, with their inverted commas
    ['Russian Federation', 'ru'],
    ['Korea, Republic of', 'kr'],
    ["Korea, Democratic People's Republic of", 'kp'],
    ['Iran, Islamic Republic of', 'ir'],
    ['Tanzania, United Republic of', 'tz'],
    ['Brunei Darussalam', 'bn'],
    ['Cabo Verde', 'cv'],
    ['Syrian Arab Republic', 'sy'],
    ['Myanmar', 'mm'],
    ['Hong Kong', 'hk'],
    ["Côte d'Ivoire", 'ci'],
    ["Cote d'Ivoire", 'ci'],
    ['COTE D IVOIRE', 'ci'],
    ['Türkiye', 'tr'],
    ['Curaçao', 'cw'],
    ['Åland Islands', 'ax'],
    ['Réunion', 're'],
    ['Bolivia, Plurinational State of', 'bo'],
    ['Holy See (Vatican City State)', 'va'],
    ['Viet Nam', 'vn'],
    // common and official names
    ['United States', 'us'],
    ['United States of America', 'us'],
    ['South Korea', 'kr'],
    ['Republic of Korea', 'kr'],
    ['Taiwan', 'tw'],
    ['Bolivia', 'bo'],
    ['Moldova', 'md'],
    // informal names
    ['UK', 'gb'],
    ['England', 'gb'],
    ['Holland', 'nl'],
    ['Deutschland', 'de'],
    ['Ivory Coast', 'ci'],
    ['East Timor', 'tl'],
    // "&" for "and", and a leading article
    ['Trinidad & Tobago', 'tt'],
    ['Bosnia & Herzegovina', 'ba'],
    ['St. Kitts & Nevis', 'kn'],
    ['The Bahamas', 'bs'],
    ['The Gambia', 'gm'],
    ['Democratic Republic of the Congo', 'cd'],
    // names as CLDR (and so many exports) writes them
    ['U.S. Virgin Islands', 'vi'],
    ['Hong Kong SAR China', 'hk'],
    ['Myanmar (Burma)', 'mm'],
    ['Palestinian Territories', 'ps'],
    ['Sint Maarten', 'sx'],
    ['St. Martin', 'mf'],
    // ISO's own English short names today, article last or in brackets
    ['United States of America (the)', 'us'],
    ['United Kingdom of Great Britain and Northern Ireland (the)', 'gb'],
    ['Netherlands (Kingdom of the)', 'nl'],
    ['Netherlands (the)', 'nl'],
    ['Philippines (the)', 'ph'],
    ['Korea (the Republic of)', 'kr'],
    ["Korea (the Democratic People's Republic of)", 'kp'],
    ['Moldova (the Republic of)', 'md'],
    ["Lao People's Democratic Republic (the)", 'la'],
    ['Tanzania, the United Republic of', 'tz'],
    ['Congo (the)', 'cg'],
    ['Congo (the Democratic Republic of the)', 'cd'],
    ['Falkland Islands (the) [Malvinas]', 'fk'],
    ['Holy See (the)', 'va'],
    ['Micronesia (Federated States of)', 'fm'],
    ['Virgin Islands (U.S.)', 'vi'],
    ['Virgin Islands (British)', 'vg'],
    ['United States Minor Outlying Islands (the)', 'um'],
    ['Bahamas, The', 'bs'],
    ['Gambia, The', 'gm'],
    // "Rep." and "Dem.", as statistics offices abbreviate them
    ['Dominican Rep.', 'do'],
    ['Czech Rep.', 'cz'],
    ['Korea, Rep.', 'kr'],
    ['Congo, Dem. Rep.', 'cd'],
    ['Congo (Democratic Republic)', 'cd'],
    ["Korea, Dem. People's Rep.", 'kp'],
    // codes
    ['US', 'us'],
    ['u.s.', 'us'],
    ['U.S.A.', 'us'],
    ['NA', 'na'],
    ['de', 'de'],
  ])('%j → %s', (raw, code) => expect(value(raw)).toBe(code));

  it.each([
    'N.A.',
    'N/A',
    'n/a',
    '#N/A',
    'none',
    'Unknown',
    'null',
    '-',
    'Atlantis',
    'EU',
    'XX',
    'Europe',
    // neither name nor code, whichever way the brackets are read
    'Niger (Nigeria)',
    'Atlantis (the)',
    'The',
    '(the)',
    '',
  ])('%j is unusable', (raw) => expect(value(raw)).toBeNull());

  it('says a placeholder is one', () =>
    expect(normalizeCountry('N.A.')).toEqual({ ok: false, reason: 'is a placeholder, not a country' }));

  it('knows every ISO 3166-1 entry by alpha-2, alpha-3 and short name', () => {
    expect(ISO_3166_1).toHaveLength(249);
    for (const [alpha2, alpha3, name] of ISO_3166_1) {
      expect([value(alpha2.toUpperCase()), value(alpha3.toUpperCase()), value(name!)]).toEqual([
        alpha2,
        alpha2,
        alpha2,
      ]);
    }
  });

  // Many systems export country names from the Unicode CLDR (browsers' and Node's Intl), which writes some
  // differently from ISO ("Bosnia & Herzegovina", "U.S. Virgin Islands").
  it('knows every English country name Intl writes, long and short', () => {
    const names = ['long', 'short'].map(
      (style) => new Intl.DisplayNames(['en'], { type: 'region', style: style as 'long' | 'short' }),
    );
    const wrong = ISO_3166_1.flatMap(([alpha2]) =>
      names
        .map((n) => n.of(alpha2.toUpperCase())!)
        .filter((name) => value(name) !== alpha2)
        .map((name) => `${name} → ${value(name)} (not ${alpha2})`),
    );
    expect(wrong).toEqual([]);
  });
});
