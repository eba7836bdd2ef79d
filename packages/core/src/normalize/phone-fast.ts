import metadata from 'libphonenumber-js/min/metadata';

/**
 * A fast path for the usual valid phone outside North America, answering exactly what
 * `parsePhoneNumberFromString(…)?.isValid()` and `.number` would, from the same (min) metadata with regular
 * expressions compiled once. libphonenumber-js builds a RegExp per check (`matchesEntirely`), and a +44
 * number runs dozens of them: ~120 µs a UK phone against ~3 µs a US one, the worker's top function on a file
 * with international numbers. Whenever a rule below is not certain to give the library's answer (a national
 * prefix to strip with a transform, an ambiguous strip, a number that looks like it carries its own calling code
 * or an international dialling prefix, a calling code that is not the country's main one, an invalid number),
 * it answers null and the caller asks the library. `phone-fast.property.test.ts` compares both.
 */

type Plan = {
  code: string;
  /** ^(?:international dialling prefix) */
  idd: RegExp | null;
  /** ^(?:national number pattern)$ */
  nnp: RegExp;
  lengths: number[];
  /** ^(?:national prefix for parsing) */
  npfp: RegExp | null;
  transform: boolean;
  /** Pattern and possible lengths of each number type (min metadata keeps types for a few countries only). */
  types: { re: RegExp; lengths: number[] }[] | null;
  /** First country listed for its calling code: the one libphonenumber selects the numbering plan by. */
  main: boolean;
  /**
   * Whether libphonenumber's choice among the countries sharing the code is certain to be this one for a number
   * valid here: it is the only one, or the first and picked by its types (no leading digits to match instead).
   */
  picked: boolean;
};

type CountryJson = unknown[];
const meta = metadata as unknown as {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, CountryJson>;
};

const plans = new Map<string, Plan | null>();
const whole = (p: string) => new RegExp(`^(?:${p})$`);

function plan(country: string): Plan | null {
  let p = plans.get(country);
  if (p !== undefined) return p;
  const c = meta.countries[country];
  p = null;
  if (c) {
    const code = c[0] as string;
    const nationalPrefix = (c[5] as string | 0) || '';
    const npfp = (c[7] as string | 0) || nationalPrefix;
    const rawTypes = c[11] as (0 | [string, number[]?])[] | 0 | undefined;
    const lengths = (c[3] as number[] | 0) || [];
    p = {
      code,
      idd: c[1] ? new RegExp(`^(?:${c[1] as string})`) : null,
      nnp: whole(c[2] as string),
      lengths,
      npfp: npfp ? new RegExp(`^(?:${npfp})`) : null,
      transform: Boolean(c[8]),
      types:
        rawTypes && rawTypes.length
          ? rawTypes
              .filter((t): t is [string, number[]?] => Boolean(t) && Boolean((t as [string])[0]))
              .map((t) => ({ re: whole(t[0]), lengths: t[1] ?? lengths }))
          : null,
      main: meta.country_calling_codes[code]?.[0] === country,
      picked: false,
    };
    const shared = (meta.country_calling_codes[code]?.length ?? 0) > 1;
    p.picked = p.main && (!shared || (Boolean(p.types) && !c[10]));
  }
  plans.set(country, p);
  return p;
}

/** isValid for the national (significant) number in the country: its pattern, and a type's where kept. */
function valid(p: Plan, n: string): boolean {
  if (!p.nnp.test(n)) return false;
  if (!p.types) return true;
  return p.types.some((t) => t.lengths.includes(n.length) && t.re.test(n));
}

/**
 * The national number libphonenumber would keep, when it is certain to be the one below and valid in the
 * main country of the code: the digits as they are, or with the national prefix stripped.
 */
function nationalNumber(p: Plan, digits: string): string | null {
  const m = p.npfp?.exec(digits);
  if (!m) return valid(p, digits) ? digits : null;
  // A captured group (carrier codes, transforms) or an empty match: leave it to the library.
  if (p.transform || m.length > 1 || !m[0]) return null;
  const stripped = digits.slice(m[0].length);
  // The library keeps the digits unstripped when only they fit the pattern: not certain here, ask it.
  if (p.nnp.test(digits)) return null;
  if (!p.lengths.includes(stripped.length)) return null;
  return valid(p, stripped) ? stripped : null;
}

/** '+' and `digits` (a calling code first, 8 to 15 digits): the E.164 digits when valid, else null. */
export function fastInternational(digits: string): { e164: string; code: string } | null {
  for (let len = 1; len <= 3; len++) {
    const countries = meta.country_calling_codes[digits.slice(0, len)];
    if (!countries) continue;
    const country = countries[0]!;
    if (country === '001' || len === 1) return null; // non-geographic codes; +1 and +7 take the library
    const p = plan(country);
    if (!p || !p.picked) return null;
    const n = nationalNumber(p, digits.slice(len));
    return n ? { e164: p.code + n, code: p.code } : null;
  }
  return null;
}

/** `digits` written nationally in `country` (ISO, capitals): the E.164 digits when valid, else null. */
export function fastNational(digits: string, country: string): { e164: string; code: string } | null {
  const p = plan(country);
  if (!p || !p.picked) return null;
  // The library reads these as international numbers without their '+': let it.
  if (digits.startsWith(p.code) || p.idd?.test(digits)) return null;
  const n = nationalNumber(p, digits);
  return n ? { e164: p.code + n, code: p.code } : null;
}

/**
 * Whether `digits` is certain to be invalid written nationally in `country` (ISO, capitals), where the library
 * would say so too: no international prefix or calling code to read first, no national prefix to strip, and
 * not valid as it is. A row's country is tried before the file's default, and a number that is not the row
 * country's must not cost a library parse on every such row (a North American number in a French row).
 */
export function fastNationalInvalid(digits: string, country: string): boolean {
  const p = plan(country);
  if (!p || !p.picked) return false;
  if (digits.startsWith(p.code) || p.idd?.test(digits) || p.npfp?.test(digits)) return false;
  // The library reads a national number as any country sharing the calling code (a +1 340 number in a US row
  // is valid as the US Virgin Islands'), so it is invalid only when it is invalid in every one of them.
  return (meta.country_calling_codes[p.code] ?? [country]).every((other) => {
    const q = plan(other);
    return q !== null && !valid(q, digits);
  });
}

/** The trunk prefix a national number of `country` (ISO, capitals) is written with ('0' in the UK), or ''. */
export function nationalPrefix(country: string): string {
  const c = meta.countries[country];
  return c ? (c[5] as string | 0) || '' : '';
}
