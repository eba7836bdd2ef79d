import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '../hash/sha256.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createEventIdDeriver, deriveEventId } from './event-id.ts';
import { STRONG_IDENTIFIERS, WEAK_IDENTIFIERS } from './identifiers.ts';
import { createRowValidator } from './row-validator.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
const BASE: Record<string, string> = {
  Email: 'ann@example.com',
  Phone: '(650)555-1212',
  Event: 'Purchase',
  When: '2026-11-21T10:00:00Z',
  Source: 'physical_store',
  Value: '12.50',
  Currency: 'USD',
  City: 'Paris',
};
const FIELD: Record<string, string> = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
  City: 'city',
  Order: 'order_id',
};

function idOf(cells: Record<string, string>, columns = Object.keys(cells), now = NOW): string {
  const mappings = Object.fromEntries(columns.map((c) => [c, FIELD[c]!]));
  const v = createRowValidator({
    headers: columns,
    mappings,
    hardcoded: {},
    settings: DEFAULT_FILE_SETTINGS,
    now,
  });
  return v(
    columns.map((c) => cells[c]!),
    2,
  ).effectiveRow.event_id!;
}
const without = (o: Record<string, string>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('derived event_id', () => {
  const base = idOf(BASE);
  it.each([
    ['stray whitespace', { ...BASE, Email: '  ann@example.com ', Event: ' Purchase' }],
    [
      'letter case and formatting of identifiers',
      { ...BASE, Email: 'ANN@Example.com', Phone: '+1 650-555-1212' },
    ],
    ['the same instant written another way', { ...BASE, When: '2026-11-21 10:00' }],
    ['another value or currency', { ...BASE, Value: '99', Currency: 'EUR' }],
    ['an extra weak column', { ...BASE, City: 'Lyon' }],
    ['a column dropped that is not an identifier', without(BASE, 'City', 'Value')],
  ])('does not change with %s', (_why, cells) => expect(idOf(cells)).toBe(base));

  it.each([
    ['another person', { ...BASE, Email: 'bob@example.com' }],
    ['another time', { ...BASE, When: '2026-11-21T10:01:00Z' }],
    ['another event', { ...BASE, Event: 'Lead' }],
  ])('changes with %s', (_why, cells) => expect(idOf(cells)).not.toBe(base));

  it('uses order_id instead of the identifiers when there is one, so added match keys keep the id', () => {
    const order = { ...without(BASE, 'Email'), Order: 'A-1' };
    expect(idOf({ ...order, Email: 'ann@example.com' })).toBe(idOf(order));
    expect(idOf({ ...order, Order: 'A-2' })).not.toBe(idOf(order));
  });

  it('does not depend on "now" for a date-only event_time moved to the current time', () => {
    const cells = { ...BASE, When: '2026-11-22' };
    expect(idOf(cells, undefined, Date.UTC(2026, 10, 22, 9) / 1000)).toBe(
      idOf(cells, undefined, Date.UTC(2026, 10, 22, 10) / 1000),
    );
  });

  it('is independent of column order and surrounding whitespace (property)', () => {
    const columns = Object.keys(BASE);
    const pad = fc.constantFrom('', ' ', '  ', '\t', '\u00a0');
    fc.assert(
      fc.property(
        fc.shuffledSubarray(columns, { minLength: columns.length, maxLength: columns.length }),
        fc.array(fc.tuple(pad, pad), { minLength: columns.length, maxLength: columns.length }),
        fc.emailAddress(),
        (order, pads, email) => {
          const cells: Record<string, string> = { ...BASE, Email: email };
          const padded = Object.fromEntries(
            columns.map((c, i) => [c, `${pads[i]![0]}${cells[c]}${pads[i]![1]}`]),
          );
          expect(idOf(padded, order)).toBe(idOf(cells, columns));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('is the hash of its pairs as JSON.stringify writes them, whatever the values hold (property)', () => {
    // decision 0011, written plainly: the id's text is built by hand, and every value must be escaped as JSON.
    const reference = (eff: Record<string, string>, time: string) => {
      const present = (keys: readonly string[]) => keys.filter((k) => eff[k]).sort();
      const strong = present(STRONG_IDENTIFIERS);
      const pairs = eff.order_id
        ? [['order_id', eff.order_id.trim()]]
        : (strong.length ? strong : present(WEAK_IDENTIFIERS)).map((k) => [k, eff[k]]);
      const json = JSON.stringify([['event_name', eff.event_name ?? ''], ['event_time', time], ...pairs]);
      return `bs-${sha256(json).slice(0, 32)}`;
    };
    const text = fc.oneof(fc.string(), fc.constantFrom('a"b', 'back\\slash', '\u0001', '\ud800', ' A-1 '));
    const row = fc.record(
      { event_name: text, order_id: text, email: text, city: text },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(row, text, (eff, time) => {
        expect(deriveEventId(eff, time)).toBe(reference(eff, time));
      }),
      { numRuns: 1_000 },
    );
  });

  it(
    "one file's deriver gives deriveEventId's id for a number's text, across rows (property)",
    { timeout: 60_000 },
    () => {
      // Names that repeat (the deriver remembers each one's JSON) and names JSON has to escape.
      const name = fc.oneof(
        fc.constantFrom('Purchase', 'Lead', 'a"b', 'back\\slash', '\u0001', '\ud800'),
        fc.string(),
      );
      const time = fc.oneof(fc.constant(''), fc.integer().map(String), fc.double().map(String));
      const row = fc.record(
        {
          event_name: name,
          order_id: fc.oneof(fc.string(), fc.constant(' A-1 ')),
          email: fc.emailAddress(),
          city: fc.string(),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(row, time), { maxLength: 20 }), (rows) => {
          const derive = createEventIdDeriver();
          for (const [eff, t] of rows) expect(derive(eff, t)).toBe(deriveEventId(eff, t));
        }),
        { numRuns: 1_000 },
      );
    },
  );
});
