import { describe, expect, it } from 'vitest';
import { utf8Length } from '../batch/utf8-length.ts';
import { createBatcher } from '../batch/batcher.ts';
import { createEventWriter } from '../events/event-writer.ts';
import { normalizeDateOfBirth } from './dates.ts';
import { normalizeEmail } from './email.ts';
import type { Normalized } from './result.ts';

const value = (r: Normalized) => (r.ok ? r.value : null);
const MARCH_3_2026 = { y: 2026, m: 3, d: 3 };

describe('email with a trailing separator', () => {
  it.each([
    ['ann@example.com,', 'ann@example.com'],
    ['ann@example.com;', 'ann@example.com'],
    ['ann@example.com ,', 'ann@example.com'],
    [',ann@example.com', 'ann@example.com'],
  ])('%j → %s', (raw, expected) => {
    expect(value(normalizeEmail(raw))).toBe(expected);
    expect(normalizeEmail(raw)).toMatchObject({ note: expect.stringMatching(/removed a stray separator/) });
  });
});

describe('date of birth', () => {
  it.each([
    ['Sun Feb 16 1997', '19970216'],
    ['Sunday, 16 February 1997', '19970216'],
    ['16 Feb 1997', '19970216'],
    ['Feb 16, 1997', '19970216'],
    ['2026-03-03', '20260303'],
    ['2026-03-04', null],
    ['2026-12-31', null],
    ['12/31/2026', null],
    ['2027-01-01', null],
    ['2025-12-31', '20251231'],
  ])('%j (today 2026-03-03) → %s', (raw, expected) =>
    expect(value(normalizeDateOfBirth(raw, 'MDY', MARCH_3_2026))).toBe(expected),
  );
});

describe('batch byte budget', () => {
  it.each([
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['정', 3],
    ['a\ud800b', 5],
  ])('utf8Length(%j) = %i', (s, n) => {
    expect(utf8Length(s)).toBe(n);
    if (!s.includes('\ud800')) expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    const event = (name: string) =>
      createEventWriter()({
        effectiveRow: { event_name: name, event_time: '1', action_source: 'other', event_id: 'x' },
      });
    const one = new TextEncoder().encode(event('정'.repeat(100)).json).length + 1;
    const b = createBatcher({ maxBytes: one * 2 - 1 });
    expect(b.add(event('정'.repeat(100)), 2)).toBeNull();
    const full = b.add(event('정'.repeat(100)), 3);
    expect(full).toMatchObject({ rowNumbers: [2], bytes: one });
  });
});
