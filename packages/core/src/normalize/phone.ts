import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { clean, ok, unusable, type Normalized } from './result.ts';

const WIDE_DIGITS = /[\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9]/g;
function asciiDigits(s: string): string {
  return s.replace(WIDE_DIGITS, (d) => {
    const c = d.charCodeAt(0);
    const base = c >= 0xff10 ? 0xff10 : c >= 0x06f0 ? 0x06f0 : 0x0660;
    return String(c - base);
  });
}

const callingCodes = new Map<string, string>();
function callingCode(country: string): string | null {
  const cc = country.toUpperCase();
  let code = callingCodes.get(cc);
  if (code === undefined) {
    try {
      code = getCountryCallingCode(cc as CountryCode);
    } catch {
      code = '';
    }
    callingCodes.set(cc, code);
  }
  return code || null;
}

/**
 * ph: digits only, with the country code Meta requires. Numbers written internationally (+44…, 0044…,
 * 011…) keep their own code; national numbers get the file's default country code (reported). Extensions,
 * a trunk "(0)", a spreadsheet ".0" and full-width digits are handled; numbers whose digits were lost
 * (1.65056E+10), all zeros, too short or too long are unusable.
 * @example normalizePhone('(650)555-1212', 'US') // { ok: true, value: '16505551212', note: 'Added country code +1 to phone' }
 */
export function normalizePhone(raw: string, defaultCountry: string): Normalized {
  let v = asciiDigits(clean(raw)).toLowerCase();
  if (!v) return unusable('is empty');
  if (/^\d(\.\d+)?e\+?\d+$/.test(v)) return unusable('lost its digits in a spreadsheet (scientific notation)');
  v = v.replace(/^tel:/, '');
  v = v.replace(/^(\+?\d+)\.0$/, '$1');
  v = v.replace(/\s*(?:ext\.?|extension|x|#)\s*\d{1,6}$/, '');
  v = v.replace(/\(0\)/g, '');

  let international = false;
  let digits: string;
  if (v.startsWith('+')) {
    international = true;
    digits = v.replace(/\D/g, '');
  } else {
    digits = v.replace(/\D/g, '');
    if (digits.startsWith('00')) {
      international = true;
      digits = digits.slice(2);
    } else if (digits.startsWith('011') && digits.length > 11) {
      international = true;
      digits = digits.slice(3);
    }
  }
  if (!digits || /^0+$/.test(digits)) return unusable('has no digits');

  if (international) {
    digits = digits.replace(/^0+/, '');
    // North American numbers are 1 + 10 digits; anything else is checked against the numbering plan.
    if (digits.length === 11 && digits.startsWith('1')) return ok(digits);
    if (digits.length < 8 || digits.length > 15 || !parsePhoneNumberFromString(`+${digits}`)?.isPossible()) {
      return unusable('is not a possible phone number for its country code');
    }
    return ok(digits);
  }

  const country = defaultCountry.toUpperCase();
  const code = callingCode(country);
  // Fast path for North American numbers: 10 digits get +1, 11 digits starting with 1 already have it.
  if (code === '1') {
    const national = digits.replace(/^0+/, '');
    if (national.length === 11 && national.startsWith('1')) return ok(national);
    if (national.length === 10) return ok(`1${national}`, 'Added country code +1 to phone');
  }
  if (code) {
    const parsed = parsePhoneNumberFromString(digits, country as CountryCode);
    if (parsed?.isPossible()) {
      const e164 = parsed.number.slice(1);
      const added = !digits.startsWith(code) || digits.length < e164.length;
      return ok(e164, added ? `Added country code +${parsed.countryCallingCode} to phone` : undefined);
    }
  }
  // Not a possible number for the default country: it may be a foreign number written without its '+'.
  const bare = digits.replace(/^0+/, '');
  if (bare.length >= 8 && bare.length <= 15 && parsePhoneNumberFromString(`+${bare}`)?.isPossible()) {
    return ok(bare, `Phone read as an international number (+${bare}): it is not a possible ${country} number`);
  }
  return unusable(`is not a possible phone number for ${country} or any country code`);
}
