import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDuplicateTracker, markDuplicate } from './duplicates.ts';

describe('duplicate events in a file', () => {
  it('names the first row an event appeared in', () => {
    const t = createDuplicateTracker();
    expect(t.check('Purchase', 'order-1', 2)).toBeNull();
    expect(t.check('Purchase', 'order-2', 3)).toBeNull();
    expect(t.check('Lead', 'order-1', 4)).toBeNull(); // another event name: another event for Meta
    expect(t.check('Purchase', 'order-1', 5)).toBe(2);
    expect(t.check('Purchase', 'order-1', 6)).toBe(2);
  });

  it('keeps every distinct event apart across table growth', () => {
    const t = createDuplicateTracker();
    // One assertion over the whole table, not 50,000: expect() per row was most of the time this took.
    const wrong: number[] = [];
    for (let r = 2; r < 50_002; r++) if (t.check('Purchase', `id-${r}`, r) !== null) wrong.push(r);
    for (let r = 2; r < 50_002; r += 997) if (t.check('Purchase', `id-${r}`, 99_999) !== r) wrong.push(r);
    expect(wrong).toEqual([]);
  });

  it('finds exactly the repeats of any list of ids', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (ids) => {
        const t = createDuplicateTracker();
        const first = new Map<string, number>();
        ids.forEach((id, i) => {
          const row = i + 2;
          const expected = first.get(id) ?? null;
          if (expected === null) first.set(id, row);
          expect(t.check('Lead', id, row)).toBe(expected);
        });
      }),
    );
  });

  it('says plainly what it did with the repeat', () => {
    const r = markDuplicate(
      {
        rowNumber: 9,
        errors: [],
        corrections: [],
        drops: [],
        warnings: [],
        effectiveRow: { event_id: 'order-1' },
      },
      4,
    );
    expect(r.corrections).toEqual([
      {
        field: 'event_id',
        message:
          'Same event as row 4 (event name and event_id): left out, since Meta would count it only once.',
        original: 'order-1',
        corrected: '',
      },
    ]);
  });
});
