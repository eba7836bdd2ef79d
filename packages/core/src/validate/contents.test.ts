import { describe, expect, it } from 'vitest';
import { buildEvent } from '../events/build-event.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { parseContents } from './contents.ts';
import { createRowValidator } from './row-validator.ts';

describe('parseContents', () => {
  it.each([
    ['{"id":"x","quantity":"2"}', [{ id: 'x', quantity: 2 }], true],
    ['[{"id":"x","quantity":2,"item_price":"9.99"}]', [{ id: 'x', quantity: 2, item_price: 9.99 }], true],
    ['[{"id":123,"quantity":1}]', [{ id: '123', quantity: 1 }], true],
    [
      '[{"id":"a","delivery_category":"Curbside"},{"id":"b","delivery_category":"home_delivery"}]',
      [
        { id: 'a', delivery_category: 'curbside' },
        { id: 'b', delivery_category: 'home_delivery' },
      ],
      true,
    ],
    [
      '[{"id":"sku-1","quantity":1,"item_price":9.99,"title":"Mug"}]',
      [{ id: 'sku-1', quantity: 1, item_price: 9.99, title: 'Mug' }],
      false,
    ],
  ])('%s', (raw, items, noted) => {
    const r = parseContents(raw);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(JSON.parse(r.value)).toEqual(items);
    expect(Boolean(r.note)).toBe(noted);
  });

  it.each([
    ['[{"id":"x","quantity":2.5}]', /item 1 has quantity 2.5; it must be a whole number/],
    ['[{"id":"x","quantity":"two"}]', /item 1 has quantity "two"/],
    ['[{"id":"x","quantity":0}]', /whole number of 1 or more/],
    ['[{"id":"x"},{"id":"y","item_price":"cheap"}]', /item 2 has item_price "cheap"; it must be a number/],
    ['[{"id":"x","item_price":null}]', /item_price null/],
    [
      '[{"id":"x","delivery_category":"drone"}]',
      /delivery_category "drone"; it must be one of in_store, curbside, home_delivery/,
    ],
    ['[{"quantity":1}]', /item 1 needs an "id"/],
    ['[{"id":""}]', /needs an "id"/],
    ['[{"id":{"a":1}}]', /needs an "id"/],
    ['[1]', /item 1 is not an object/],
    ['[]', /empty list/],
    ['not json', /is not valid JSON/],
  ])('%s is an error', (raw, reason) => {
    const r = parseContents(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('contents in a row', () => {
  const validate = (contents: string) =>
    createRowValidator({
      headers: ['email', 'contents'],
      mappings: { email: 'email', contents: 'contents' },
      hardcoded: { event_name: 'AddToCart', action_source: 'physical_store', event_time: '2026-11-21' },
      settings: DEFAULT_FILE_SETTINGS,
      now: Date.UTC(2026, 10, 22) / 1000,
    })(['ann@example.com', contents], 2);

  it('sends quantity as a number', () => {
    const r = validate('{"id":"x","quantity":"2"}');
    expect(r.errors).toEqual([]);
    expect(buildEvent(r).custom_data?.contents).toEqual([{ id: 'x', quantity: 2 }]);
  });

  it('names the bad item', () =>
    expect(validate('[{"id":"x","quantity":"lots"}]').errors[0]?.message).toBe(
      'contents item 1 has quantity "lots"; it must be a whole number of 1 or more.',
    ));
});
