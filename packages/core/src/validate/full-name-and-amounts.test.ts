import { describe, expect, it } from 'vitest';
import { validationNotices } from '../csv/notices.ts';
import { buildEvent } from '../events/build-event.ts';
import { sha256 } from '../hash/sha256.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator, type ValidationStats } from './row-validator.ts';

const NOW = Date.UTC(2026, 10, 24, 12) / 1000;
const BASE = ['event_name', 'event_time', 'action_source', 'email'];
const row = (name: string) => ['Lead', '2026-11-24 10:00', 'physical_store', 'ann@example.com', name];

function validator(headers: string[], mappings: Record<string, string>, hardcoded = {}) {
  return createRowValidator({
    headers,
    mappings: { ...Object.fromEntries(BASE.map((h) => [h, h])), ...mappings },
    hardcoded,
    settings: DEFAULT_FILE_SETTINGS,
    now: NOW,
  });
}

describe('a whole-name column (decision 0097)', () => {
  const validate = validator([...BASE, 'Billing Name'], { 'Billing Name': 'full_name' });

  it.each([
    ['Ann Smith', 'ann', 'smith'],
    ['Dr. Vincent van der Berg', 'vincent', 'vanderberg'],
    ['García Márquez, Gabriel', 'gabriel', 'garcíamárquez'],
    ["Siobhán O'Brien Jr.", 'siobhán', 'obrien'],
  ])('%j fills first_name %j and last_name %j, hashed as fn and ln', (name, fn, ln) => {
    const r = validate(row(name), 2);
    expect(r.errors).toEqual([]);
    expect(r.effectiveRow).toMatchObject({ first_name: fn, last_name: ln });
    const event = buildEvent(r) as { user_data: Record<string, unknown> };
    expect(event.user_data.fn).toEqual([sha256(fn)]);
    expect(event.user_data.ln).toEqual([sha256(ln)]);
  });

  it('gives a single word to first_name only', () => {
    const r = validate(row('Cher'), 2);
    expect(r.effectiveRow.first_name).toBe('cher');
    expect(r.effectiveRow.last_name).toBeUndefined();
  });

  it.each([
    ['N/A', 'is a placeholder, not a name'],
    ['#1001', 'has no letters'],
    ['a'.repeat(64), 'is already hashed, so it cannot be split into first and last name'],
  ])('drops %j with its reason, and sends no name', (name, reason) => {
    const r = validate(row(name), 2);
    expect(r.effectiveRow.first_name).toBeUndefined();
    expect(r.drops).toEqual([
      {
        field: 'full_name',
        reason: expect.any(String),
        message: expect.stringContaining(reason),
        original: name,
      },
    ]);
  });

  it('leaves first and last name to their own columns where they have a value', () => {
    const v = validator([...BASE, 'Name', 'First'], { Name: 'full_name', First: 'first_name' });
    const r = v([...row('Ann Smith'), 'Annie'], 2);
    expect(r.effectiveRow).toMatchObject({ first_name: 'annie', last_name: 'smith' });
    expect(v([...row('Ann Smith'), ''], 3).effectiveRow).toMatchObject({
      first_name: 'ann',
      last_name: 'smith',
    });
  });

  it('is ignored by a mapping without it, as before', () => {
    const r = validator([...BASE, 'Billing Name'], {})(row('Ann Smith'), 2);
    expect(r.effectiveRow.first_name).toBeUndefined();
  });
});

describe('amounts read by convention are counted for a file notice (decision 0097)', () => {
  function notices(values: string[], decimal?: '.' | ',') {
    const stats: ValidationStats = { trimmedCells: 0 };
    const validate = createRowValidator(
      {
        headers: [...BASE, 'Total', 'currency'],
        mappings: { ...Object.fromEntries(BASE.map((h) => [h, h])), Total: 'value', currency: 'currency' },
        hardcoded: {},
        settings: DEFAULT_FILE_SETTINGS,
        now: NOW,
        decimalSeparators: decimal ? { Total: decimal } : {},
      },
      stats,
    );
    values.forEach((v, i) => validate([...row('').slice(0, 4), v, 'EUR'], i + 2));
    return validationNotices([], new Set(), 0, 0, stats.amounts).map((n) => [n.code, n.message, n.count]);
  }

  it('tells a decimal comma with its first example', () => {
    expect(notices(['12,50', '3,99', '7'], ',')).toEqual([
      [
        'AMOUNT_DECIMAL_COMMA',
        'Amounts use a decimal comma: "12,50" was read as 12.50 (2 amounts in all).',
        2,
      ],
    ]);
  });

  it('tells "." between thousands', () => {
    expect(notices(['1.234,50', '2.000'], ',')).toEqual([
      ['AMOUNT_DECIMAL_COMMA', 'Amounts use a decimal comma: "1.234,50" was read as 1234.50.', 1],
      [
        'AMOUNT_THOUSANDS',
        'Amounts use "." between thousands: "1.234,50" was read as 1234.50 (2 amounts in all).',
        2,
      ],
    ]);
    expect(notices(['1 234,5'])[1]).toEqual([
      'AMOUNT_THOUSANDS',
      'Amounts use a space between thousands: "1 234,5" was read as 1234.5.',
      1,
    ]);
  });

  it('tells nothing for amounts written the usual way', () => {
    expect(notices(['12.50', '$1,200.00', '1234', '(12.50)'])).toEqual([]);
  });
});

describe('an Excel "sep=" first line (decision 0097)', () => {
  it('is told as a file notice, not read in silence', async () => {
    const { readCsv } = await import('../csv/read-csv.ts');
    const items = [];
    for await (const item of readCsv([new TextEncoder().encode('sep=;\nemail;Total\na@b.co;12,50\n')]))
      items.push(item);
    expect(items.filter((i) => i.kind === 'row')).toHaveLength(1);
    expect(items.flatMap((i) => (i.kind === 'notice' ? [i.notice] : []))).toEqual([
      {
        code: 'SEPARATOR_LINE',
        count: 1,
        message:
          'Separator line: the first line, "sep=;", is Excel\'s note of the column separator. Columns were split at ";", and the line was not read as a row.',
      },
    ]);
  });
});
