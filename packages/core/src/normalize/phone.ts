import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { fastInternational, fastNational, fastNationalInvalid, nationalPrefix } from './phone-fast.ts';
import { clean, ok, trimmed, unusable, type Normalized } from './result.ts';

const PLAIN_PHONE = /^[\d\s().+-]+$/;
// An extension or dialling pause after the number: "x123", "ext. 42", "extn 5", "ext:5", "#5", "(ext 5)",
// "p123", ";ext=12" (tel: URIs) and ",123" (a pause before dialling the extension).
const EXTENSION = /\s*(?:;\s*ext=|\(?\s*(?:ext(?:ension|n)?|x|#|p)\s*[.:=]?|,+)\s*\d{1,7}\s*\)?$/;
const WIDE_DIGITS = /[\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9]/g;
function asciiDigits(s: string): string {
  return s.replace(WIDE_DIGITS, (d) => {
    const c = d.charCodeAt(0);
    const base = c >= 0xff10 ? 0xff10 : c >= 0x06f0 ? 0x06f0 : 0x0660;
    return String(c - base);
  });
}

/**
 * digitsOnly(s) for an ASCII plain phone (a non-empty text of ASCII digits, spaces and ( ) . + - only:
 * PLAIN_PHONE without its non-ASCII spaces), else null. One pass for both: most phones are plain, and a cell of
 * 13 characters or more is a slice of the CSV text, whose every charCodeAt costs ~50 instructions.
 */
export function plainPhoneDigits(s: string): string | null {
  if (!s) return null;
  let out = '';
  let run = -1; // start of the current run of digits
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (run < 0) run = i;
      continue;
    }
    // ' ', '(' ')' '+' '-' '.'
    if (!(c === 32 || c === 40 || c === 41 || c === 43 || c === 45 || c === 46)) return null;
    if (run >= 0) {
      out += s.slice(run, i);
      run = -1;
    }
  }
  return run >= 0 ? out + s.slice(run) : out;
}

/**
 * `s.replace(/\D/g, '')`, copying whole runs of digits (a digits-only string is returned as it is): the regex
 * replace was a measurable part of reading every phone.
 */
export function digitsOnly(s: string): string {
  let out = '';
  let run = -1; // start of the current run of digits
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (run < 0) run = i;
    } else if (run >= 0) {
      out += s.slice(run, i);
      run = -1;
    }
  }
  return run >= 0 ? out + s.slice(run) : out;
}

type Country = { iso: string; code: string; trunk: string };
/** A country as settings or a row write it → its ISO code in capitals, calling code and trunk prefix ('' if none). */
const countries = new Map<string, Country>();
function countryOf(written: string): Country {
  let c = countries.get(written);
  if (!c) {
    const iso = written.toUpperCase();
    let code = '';
    try {
      code = getCountryCallingCode(iso as CountryCode);
    } catch {
      // Not a country libphonenumber knows: national numbers get no code.
    }
    // North America's trunk 1 is rarely written: its national numbers are ten bare digits.
    c = { iso, code, trunk: code && code !== '1' ? nationalPrefix(iso) : '' };
    if (countries.size >= 600) countries.clear(); // ISO codes in either case: only odd callers get here
    countries.set(written, c);
  }
  return c;
}

/**
 * ph: digits only, with the country code Meta requires. Numbers written internationally (+44…, 0044…,
 * 011…) keep their own code; national numbers lose their trunk prefix and get the code of the row's own
 * country (`rowCountry`, from its country column or fixed value) when they are valid there, else of the file's
 * default country (reported; decision 0096). Extensions, a trunk "(0)", a spreadsheet ".0" and full-width digits are handled. Numbers
 * whose digits were lost (1.65056E+10), all zeros, and numbers that cannot exist (North American area code or
 * exchange starting with 0 or 1, or invalid in libphonenumber's numbering plan elsewhere) are unusable, so a
 * made-up number never reaches Meta as a match key.
 * @example normalizePhone('(650)555-1212', 'US') // { ok: true, value: '16505551212', note: 'Added country code +1 to phone' }
 */
export function normalizePhone(raw: string, defaultCountry: string, rowCountry?: string): Normalized {
  // Written with ASCII digits, spaces, ( ) . + - only (the usual case), there are no wide digits or letters to
  // convert, and no "e", "tel:" or extension to read. (A number that is plain only once its wide digits are
  // converted takes the steps for one that is not, which change nothing in it.) The usual phone is checked by
  // a loop first: it holds no zero-width character, so clean() would only trim it, and it needs neither
  // clean()'s regex nor PLAIN_PHONE (a few hundred instructions each, for every row).
  let text = trimmed(raw);
  const plainDigits = plainPhoneDigits(text);
  let plain = plainDigits !== null;
  if (!plain) {
    text = clean(raw);
    plain = PLAIN_PHONE.test(text);
  }
  if (!text) return unusable('is empty');
  let v = plain ? text : asciiDigits(text).toLowerCase();
  if (!plain && /^\d(\.\d+)?e\+?\d+$/.test(v))
    return unusable('lost its digits in a spreadsheet (scientific notation)');
  if (!plain) v = v.replace(/^tel:/, '');
  if (v.endsWith('.0')) v = v.replace(/^(\+?\d+)\.0$/, '$1');
  if (!plain) v = v.replace(EXTENSION, '');
  if (v.includes('(0)')) v = v.replace(/\(0\)/g, '');

  // Already read when nothing above changed the plain text.
  let digits = plainDigits !== null && v === text ? plainDigits : digitsOnly(v);
  let international = v.startsWith('+');
  if (!international) {
    if (digits.startsWith('00')) {
      international = true;
      digits = digits.slice(2);
    } else if (digits.startsWith('011') && digits.length > 11) {
      international = true;
      digits = digits.slice(3);
    }
  }
  // All zeros: only worth the regex when the first digit is one.
  if (!digits || (digits.charCodeAt(0) === 48 && /^0+$/.test(digits))) return unusable('has no digits');
  if (international) return internationalNumber(digits);

  // Once per country, not per row: the default is the same string on every row, a row's country one of few.
  const fallback = countryOf(defaultCountry);
  const own = rowCountry ? countryOf(rowCountry) : fallback;
  const other = own !== fallback && own.iso !== fallback.iso;
  // The row's country first, as its people write its numbers: with the trunk prefix where the country has
  // one (07400 123456) or with its calling code. Without either, "2015550123" in a British row is a North
  // American number of a US file before it is a London one.
  const asWritten = other && (!own.trunk || digits.startsWith(own.trunk) || digits.startsWith(own.code));
  if (asWritten) {
    const read = national(digits, own);
    if (read) return read;
  }
  const read = national(digits, fallback) ?? (other && !asWritten ? national(digits, own) : null);
  if (read) return read;
  const tried = own.iso === fallback.iso ? [fallback] : [own, fallback];
  // Only a number that cannot be national (wrong length, no trunk 0) may be a foreign one written without
  // its '+'; otherwise a mistyped US number would become, say, an Egyptian one.
  const nationalLength = tried.some(
    (c) => c.code && parsePhoneNumberFromString(digits, c.iso as CountryCode)?.isPossible(),
  );
  const names = tried.map((c) => c.iso).join(tried.length > 1 ? ', ' : '');
  if (!digits.startsWith('0') && !nationalLength) {
    const foreign = internationalNumber(digits);
    if (foreign.ok)
      return ok(
        foreign.value,
        `Phone read as an international number (+${foreign.value}): it is not a valid ${tried.map((c) => c.iso).join(' or ')} number`,
      );
  }
  return unusable(`is not a valid phone number for ${names} or any country code`);
}

/** `digits` (no international prefix) read as a national number of `country`, or null when it is not one. */
function national(digits: string, { iso: country, code }: Country): Normalized | null {
  if (code === '1') {
    if (nanp(digits, 0)) return ok(`1${digits}`, 'Added country code +1 to phone');
    if (digits.charCodeAt(0) === 49 && nanp(digits, 1)) return ok(digits);
    return null;
  }
  if (!code) return null;
  const fast = fastNational(digits, country);
  if (fast) return ok(fast.e164, `Added country code +${fast.code} to phone`);
  if (fastNationalInvalid(digits, country)) return null;
  // The numbering plan knows each country's trunk prefix (the UK's 0, for instance) and drops it.
  const parsed = parsePhoneNumberFromString(digits, country as CountryCode);
  if (!parsed?.isValid()) return null;
  const e164 = parsed.number.slice(1);
  const added = !digits.startsWith(code) || digits.length < e164.length;
  return ok(e164, added ? `Added country code +${parsed.countryCallingCode} to phone` : undefined);
}

/**
 * Whether the ASCII digits from `from` on are a North American number without its 1: ten digits, an area code
 * and an exchange that both start with 2–9 (/^1[2-9]\d{2}[2-9]\d{6}$/ once the 1 is added, tested without a
 * regex: it runs for most rows). Only for text that is all digits, as digitsOnly leaves it.
 */
export function nanp(digits: string, from: number): boolean {
  return digits.length - from === 10 && digits.charCodeAt(from) >= 50 && digits.charCodeAt(from + 3) >= 50;
}

/** Digits after an international prefix: a known country code and a number valid in its numbering plan. */
function internationalNumber(written: string): Normalized {
  let digits = written.startsWith('0') ? written.replace(/^0+/, '') : written;
  // Mexican mobiles were dialled +52 1 … until 2019 and many lists still have the 1; the number is +52 and
  // ten digits now, and libphonenumber no longer accepts the old form.
  const oldMexicanMobile = digits.length === 13 && digits.startsWith('521');
  if (oldMexicanMobile) digits = `52${digits.slice(3)}`;
  if (digits.startsWith('1'))
    return nanp(digits, 1) ? ok(digits) : unusable('is not a valid North American number');
  const fast = digits.length >= 8 && digits.length <= 15 ? fastInternational(digits) : null;
  if (fast && fast.e164.length >= 8) {
    if (oldMexicanMobile) return ok(fast.e164, 'Removed the old mobile 1 after +52 in the phone');
    return ok(
      fast.e164,
      fast.e164 === digits ? undefined : `Removed the national 0 after +${fast.code} in the phone`,
    );
  }
  const parsed =
    digits.length >= 8 && digits.length <= 15 ? parsePhoneNumberFromString(`+${digits}`) : undefined;
  if (!parsed?.isValid()) return unusable('is not a valid phone number for its country code');
  const e164 = parsed.number.slice(1);
  // The length rule holds for the result too, or a number accepted here would be refused when read again.
  if (e164.length < 8) return unusable('is not a valid phone number for its country code');
  // "+44 020 …": the national 0 does not belong after the country code.
  if (oldMexicanMobile) return ok(e164, 'Removed the old mobile 1 after +52 in the phone');
  return ok(
    e164,
    e164 === digits ? undefined : `Removed the national 0 after +${parsed.countryCallingCode} in the phone`,
  );
}
