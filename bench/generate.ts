import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const DATA_DIR = fileURLToPath(new URL('./.data/', import.meta.url));

// A deterministic generator: the same file for the same row count and day, so runs compare.
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const FIRST = ['Ann', 'Bob', 'José', 'Mary Ann', "O'Neil", 'Zoë', 'Li', 'Ana-María', 'SAM', ' kim '];
const LAST = ['Lee', 'Smith-Jones', "O'Brien", 'Díaz', 'Nguyen', 'Müller', 'Ng', 'VAN DYK'];
const CITIES = ['San Francisco', 'New York', 'São Paulo', 'Austin', 'Köln', 'St. Louis', 'Paris'];
const STATES = ['CA', 'California', 'ny', 'Texas', 'TX', 'Bayern', 'Île-de-France'];
const COUNTRIES = ['US', 'United States', 'usa', 'DE', 'Germany', 'FR', 'France'];
const EVENTS = ['Purchase', 'purchase', 'Lead', 'Schedule', 'BookedJob'];

const COLUMNS = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'city',
  'state',
  'zip',
  'country',
  'event_name',
  'event_time',
  'value',
  'currency',
  'order_id',
];

/** The generated file's columns are named after the fields they map to. */
export const GENERATED_MAPPINGS: Record<string, string> = Object.fromEntries(COLUMNS.map((c) => [c, c]));

/**
 * A CRM-style export with realistic mess: phones in every format and without country codes, mixed-case
 * emails with mailto: and spaces, US and ISO dates, millisecond timestamps, "$1,200.00" values.
 */
export async function generateCsv(
  rows: number,
  nowSeconds: number,
  opts: { internationalPhones?: boolean } = {},
): Promise<string> {
  mkdirSync(DATA_DIR, { recursive: true });
  // Event times are relative to `nowSeconds`, so a file cached on another day would fail Meta's time
  // windows row by row: the day is part of the file's name.
  const day = new Date(nowSeconds * 1000).toISOString().slice(0, 10);
  const file = `${DATA_DIR}conversions-${rows}${opts.internationalPhones ? '-intl' : ''}-${day}.csv`;
  if (existsSync(file) && statSync(file).size > rows * 50) return file;
  const r = rng(rows);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const out = createWriteStream(file);
  out.write(`${COLUMNS.join(',')}\r\n`);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const t = nowSeconds - Math.floor(r() * 5 * 86_400);
    const d = new Date(t * 1000);
    const time =
      i % 5 === 0
        ? String(t * 1000)
        : i % 5 === 1
          ? `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`
          : d.toISOString();
    const n = 2000000 + Math.floor(r() * 7999999);
    // With internationalPhones, half the rows carry UK, German, French or old-style Mexican numbers written
    // every which way (the rest stay North American), as a real international lead list does.
    const intl = opts.internationalPhones && i % 2 === 1;
    const phone = intl
      ? i % 8 === 1
        ? `+44 20 7946 ${String(n).slice(0, 4)}`
        : i % 8 === 3
          ? `0049 30 ${n}`
          : i % 8 === 5
            ? `+33 6 ${String(n).slice(0, 2)} ${String(n).slice(2, 4)} ${String(n).slice(4, 6)} ${String(n).slice(0, 2)}`
            : `+52 1 55 ${String(n).slice(0, 4)} ${String(n).slice(3, 7)}`
      : i % 4 === 0
        ? `(415) ${String(n).slice(0, 3)}-${String(n).slice(3, 7)}`
        : i % 4 === 1
          ? `+1 415 ${n}`
          : i % 4 === 2
            ? `415.${String(n).slice(0, 3)}.${String(n).slice(3, 7)}`
            : `415${n}`;
    const email = i % 7 === 0 ? ` mailto:User${i}@Example.com ` : `user${i}@example.com`;
    const value =
      i % 3 === 0
        ? `"$${(r() * 2000).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}"`
        : (r() * 500).toFixed(2);
    buf += `${email},${phone},${pick(FIRST)},${pick(LAST)},${pick(CITIES)},${pick(STATES)},${String(10000 + Math.floor(r() * 89999))}${i % 6 === 0 ? '-1234' : ''},${pick(COUNTRIES)},${pick(EVENTS)},${time},${value},${i % 2 ? 'usd' : 'USD'},ORD-${i}\r\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
  return file;
}
