import { trimmed } from '../normalize/result.ts';

export type DecimalSeparator = '.' | ',';

export interface Amount {
  value: number;
  /**
   * Set when the value had one separator followed by exactly three digits ("1,234", "1.234"), which is a
   * thousands separator in one convention and a decimal one in another: says how it was read.
   */
  ambiguous?: string;
  /**
   * How a value written another way than "1234.50" was read, for the file notice that tells it (decision 0097):
   * a decimal comma ("12,50"), and the character grouping its thousands when it is not the comma ("1.234,50",
   * "1 234", "1'234.50"). `asRead` is the amount as read, its decimals as written ("1234.50").
   */
  reading?: { decimalComma: boolean; thousands: string | null; asRead: string };
}

const PLAIN = /^\d+(?:\.(?:\d{1,2}|\d{4,}))?$/;
// '$1,200.00', '€12.50': a currency symbol, comma-grouped thousands (or none) and one or two decimals.
const SYMBOL_GROUPED = /^[$€£¥₹](?:\d{1,3}(?:,\d{3})+|\d+)\.\d{1,2}$/;
const GROUP_CHARS = /[\s\u00a0\u202f']/;

/** "1,234,567" (or Indian "12,34,567") with `sep` between groups; false for "1,2345" or "12,34". */
function validGrouping(int: string, sep: string): boolean {
  const groups = int.split(sep);
  if (groups.length === 1) return /^\d+$/.test(int);
  const [head, ...rest] = groups;
  if (!/^\d{1,3}$/.test(head!) || !/^\d{3}$/.test(rest.at(-1)!)) return false;
  const middle = rest.slice(0, -1);
  return middle.every((g) => /^\d{3}$/.test(g)) || (sep === ',' && middle.every((g) => /^\d{2}$/.test(g)));
}

function splitAmount(
  v: string,
  decimal: DecimalSeparator | undefined,
): { int: string; frac: string; group: string | null; ambiguous?: string } | null {
  const dots = v.split('.').length - 1;
  const commas = v.split(',').length - 1;
  if (dots && commas) {
    const dec = v.lastIndexOf('.') > v.lastIndexOf(',') ? '.' : ',';
    const group = dec === '.' ? ',' : '.';
    if (v.split(dec).length !== 2) return null;
    const decAt = v.lastIndexOf(dec);
    return { int: v.slice(0, decAt), frac: v.slice(decAt + 1), group };
  }
  const sep = dots ? '.' : commas ? ',' : null;
  if (!sep) return { int: v, frac: '', group: null };
  if ((dots || commas) > 1) return { int: v, frac: '', group: sep };
  const sepAt = v.lastIndexOf(sep);
  const int = v.slice(0, sepAt);
  const frac = v.slice(sepAt + 1);
  // Only "1,234"-like values could be grouping: not "0,125", "1234,567" or "1 234,567".
  // Four or more digits after a lone comma ("1,2345") is grouping gone wrong, not a decimal comma.
  if (sep === ',' && frac.length > 3 && !/^0?$/.test(int)) return null;
  const couldGroup = frac.length === 3 && /^[1-9]\d{0,2}$/.test(int);
  if (!couldGroup) return { int, frac, group: null };
  if (decimal) return decimal === sep ? { int, frac, group: null } : { int: v, frac: '', group: sep };
  // The advice must itself be unambiguous: "1.234" for "1,234" would be read as 1234 again.
  return {
    int: v,
    frac: '',
    group: sep,
    ambiguous: `the "${sep}" was taken as a thousands separator; if it is a decimal ${sep === ',' ? 'comma' : 'point'}, write it as ${int}.${frac}0`,
  };
}

/**
 * The digits readAmount reads a plain amount as, for the two usual forms whose reading never depends on the
 * column's decimal separator and is never negative or ambiguous; null for any other text.
 */
export function plainDigits(v: string): string | null {
  // Plain digits, or one point followed by one, two or four or more digits (three are left to the full path).
  if (PLAIN.test(v)) return v;
  // The usual spreadsheet currency format: a symbol, then comma groups of three and one or two decimals.
  if (SYMBOL_GROUPED.test(v)) return v.slice(1).replaceAll(',', '');
  return null;
}

// At most 15 significant digits, no leading or trailing zeros: String(Number(v)) === v, and readAmount reads it
// as Number(v).
const CANONICAL_AMOUNT = /^(?:0|[1-9]\d{0,12})(?:\.\d?[1-9])?$/;

/**
 * String(Number(digits)) for plainDigits' text, without the number-to-text conversion, when dropping the zeros
 * that do not change the number ('0103.90' → '103.9', '12.00' → '12') leaves a canonical amount; else null.
 * Equal decimal texts read as the same double, and a canonical amount is the text String() writes for it.
 */
export function canonicalDigits(digits: string): string | null {
  let end = digits.length;
  if (digits.includes('.')) {
    while (digits.charCodeAt(end - 1) === 48) end--;
    if (digits.charCodeAt(end - 1) === 46) end--;
  }
  let start = 0;
  while (start < end - 1 && digits.charCodeAt(start) === 48 && digits.charCodeAt(start + 1) !== 46) start++;
  const text = digits.slice(start, end);
  return CANONICAL_AMOUNT.test(text) ? text : null;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSymbol = (c: number) => c === 36 || c === 8364 || c === 163 || c === 165 || c === 8377; // $ € £ ¥ ₹

/**
 * canonicalDigits(plainDigits(v)) for the amounts spreadsheets usually write, two decimals after a whole number
 * that does not start with 0: '425.81', '$183.75', '$1,582.27' (one comma group). Read by position: the
 * general path takes two or three regex tests (~300–480 instructions each), a replaceAll and two slices, and
 * '425.81' needs no new string at all. Null for any other text, which takes the general path.
 */
export function usualAmount(v: string): string | null {
  const n = v.length;
  const point = n - 3;
  if (point < 1 || v.charCodeAt(point) !== 46) return null;
  const d1 = v.charCodeAt(n - 2);
  const d2 = v.charCodeAt(n - 1);
  if (!isDigit(d1) || !isDigit(d2)) return null;
  const start = isSymbol(v.charCodeAt(0)) ? 1 : 0;
  const first = v.charCodeAt(start);
  if (start === point || first < 49 || first > 57) return null; // no digits, or a leading zero
  let comma = -1;
  for (let i = start + 1; i < point; i++) {
    const c = v.charCodeAt(i);
    if (isDigit(c)) continue;
    // One thousands comma after a symbol, as in '$1,582.27': one to three digits before it, three after.
    if (c !== 44 || start === 0 || comma >= 0 || i - start > 3 || point - i !== 4) return null;
    comma = i;
  }
  if (comma < 0 && point - start > 13) return null; // CANONICAL_AMOUNT's 13 whole digits
  // Zeros at the end of the decimals do not change the number, nor a point left with none after it.
  const end = d2 !== 48 ? n : d1 !== 48 ? n - 1 : point;
  if (comma >= 0) return v.slice(start, comma) + v.slice(comma + 1, end);
  return start === 0 && end === n ? v : v.slice(start, end);
}

const finite = (n: number): Amount | null => (Number.isFinite(n) ? { value: n } : null);

/**
 * A money amount from the ways spreadsheets write it: '$1,200.00', '1.234,56', '1 234,56', "1'234.50", '€12,50',
 * '(12.50)', 'USD 12'. One separator followed by exactly three digits is ambiguous; `decimal` (the column's
 * own evidence, see detectDecimalSeparator) settles it, otherwise it is read as a thousands separator and
 * `ambiguous` says so. Null for anything that is not a finite number or has broken grouping ("1,2345").
 */
export function readAmount(raw: string, decimal?: DecimalSeparator): Amount | null {
  let v = trimmed(raw);
  if (!v) return null;
  const digits = plainDigits(v);
  if (digits !== null) return finite(Number(digits));
  let negative = false;
  if (/^\(.*\)$/.test(v)) {
    negative = true;
    v = v.slice(1, -1).trim();
  }
  v = v
    .replace(/^[A-Za-z]{3}\s*(?=[\d.,-])|(?<=[\d.,])\s*[A-Za-z]{3}$/g, '')
    .replace(/[$€£¥₹]/g, '')
    .trim();
  if (v.startsWith('-')) {
    negative = !negative;
    v = v.slice(1).trim();
  }
  if (/^[.,]\d+$/.test(v)) v = `0${v}`;
  if (!/^\d[\d.,\s\u00a0\u202f']*$/.test(v) || !/\d$/.test(v)) return null;
  const parts = splitAmount(v, decimal);
  if (!parts) return null;
  // Spaces and apostrophes only ever group thousands.
  let int = parts.int;
  if (GROUP_CHARS.test(int)) {
    const spaced = int.replace(/[\s\u00a0\u202f']+/g, ' ');
    if (parts.group && spaced.includes(parts.group)) return null;
    if (!validGrouping(spaced, ' ')) return null;
    int = spaced.replace(/ /g, '');
  }
  if (parts.group) {
    if (!validGrouping(int, parts.group)) return null;
    int = int.split(parts.group).join('');
  }
  if (!/^\d+$/.test(int) || (parts.frac && !/^\d+$/.test(parts.frac))) return null;
  const n = Number(parts.frac ? `${int}.${parts.frac}` : int);
  if (!Number.isFinite(n)) return null;
  const value = negative && n !== 0 ? -n : n;
  const out: Amount = parts.ambiguous ? { value, ambiguous: parts.ambiguous } : { value };
  const decimalComma = parts.frac !== '' && v.lastIndexOf(',') > v.lastIndexOf('.');
  const spaced = GROUP_CHARS.exec(parts.int)?.[0];
  const thousands = spaced ?? (parts.group && parts.group !== ',' ? parts.group : null);
  if (decimalComma || thousands)
    out.reading = {
      decimalComma,
      thousands: thousands ?? null,
      asRead: `${value < 0 ? '-' : ''}${int}${parts.frac ? `.${parts.frac}` : ''}`,
    };
  return out;
}

/**
 * The decimal separator a column's values agree on, from the ones that show it ("12.50", "1,234.56" → '.';
 * "12,50", "1.234,56" → ','). Null when no value decides it or the values disagree.
 */
export function detectDecimalSeparator(samples: Iterable<string>): DecimalSeparator | null {
  let dot = 0;
  let comma = 0;
  for (const s of samples) {
    const v = s.replace(/[^\d.,]/g, '');
    const last = Math.max(v.lastIndexOf('.'), v.lastIndexOf(','));
    if (last === -1) continue;
    const sep = v[last] as DecimalSeparator;
    const digitsAfter = v.length - last - 1;
    const both = v.includes('.') && v.includes(',');
    if (both || (digitsAfter > 0 && digitsAfter !== 3) || /^0[.,]/.test(v)) {
      if (sep === '.') dot++;
      else comma++;
    }
  }
  if (dot && !comma) return '.';
  if (comma && !dot) return ',';
  return null;
}
