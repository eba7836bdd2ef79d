import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEventWriter } from '../events/event-writer.ts';
import { FIELDS } from '../fields/catalogue.ts';
import { FULL_NAME } from '../mapping/full-name.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator } from '../validate/row-validator.ts';
import { MATCH_KEY_GROUPS, matchCode } from './match-keys.ts';
import { MATCH_WEIGHTS, rowMatchQuality } from './row-match-quality.ts';

const WEIGHTED = Object.keys(MATCH_WEIGHTS);
const GROUP_OF: Record<string, string> = {
  first_name: 'name',
  last_name: 'name',
  city: 'address',
  state: 'address',
  zip: 'address',
};

/** The code as its description says it: rowMatchQuality's usable keys and score, in plain floating point. */
function described(eff: Record<string, string>): number {
  const q = rowMatchQuality(eff);
  let code = 0;
  for (const key of q.usable) {
    const g = MATCH_KEY_GROUPS.indexOf((GROUP_OF[key] ?? key) as (typeof MATCH_KEY_GROUPS)[number]);
    if (g >= 0) code |= 1 << g;
  }
  return code | (Math.round(q.score * 10) << 5);
}

// Mostly the fields that weigh, empty or not, among others; contents and extinfo hold JSON the validator wrote.
const value = fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 8 }), fc.constant('x'));
const anyKey = fc.oneof(
  fc.constantFrom(...WEIGHTED),
  fc.constantFrom(...FIELDS.filter((f) => f.type !== 'json').map((f) => f.key)),
);
const row = fc
  .uniqueArray(fc.tuple(anyKey, value), { selector: ([k]) => k, maxLength: 24 })
  .map((pairs) => Object.fromEntries(pairs));

describe('an event writer answers each event its matchCode', () => {
  it('matchCode is the described code: the usable keys’ groups and the rounded estimate', () => {
    fc.assert(
      fc.property(row, (eff) => {
        expect(matchCode(eff)).toBe(described(eff));
      }),
      { numRuns: 2000 },
    );
  });

  it('the writer’s code is matchCode’s, row after row of one writer, whatever fields they have', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 10 }), (rows) => {
        const write = createEventWriter();
        for (const eff of rows) expect(write({ effectiveRow: eff }).match).toBe(matchCode(eff));
      }),
      { numRuns: 1000 },
    );
  });

  it('the same on validated rows of any mapping, hardcoded values and a whole-name column', () => {
    const NOW = Date.UTC(2026, 10, 24, 12) / 1000;
    const headers = [...WEIGHTED, FULL_NAME, 'event_name', 'event_time', 'action_source'];
    const mapping = fc.record({
      mapped: fc.subarray([...WEIGHTED, FULL_NAME]),
      hardcoded: fc.dictionary(fc.constantFrom(...WEIGHTED), fc.constantFrom('us', 'x', ' ', '')),
    });
    const cells = fc.array(
      fc.oneof(
        fc.constantFrom('', ' ', 'ann@example.com', '+1 415 555 0100', 'Ann Lee', 'fb.1.1700000000000.abc'),
        fc.constantFrom('123456789012345', '10.0.0.1', 'N/A', 'ca', '94103', '1990-01-31', 'f'),
        fc.string({ maxLength: 6 }),
      ),
      { minLength: headers.length, maxLength: headers.length },
    );
    let written = 0;
    fc.assert(
      fc.property(mapping, fc.array(cells, { minLength: 1, maxLength: 5 }), (m, rows) => {
        const validate = createRowValidator({
          headers,
          mappings: Object.fromEntries([
            ...m.mapped.map((h) => [h, h]),
            ['event_name', 'event_name'],
            ['event_time', 'event_time'],
            ['action_source', 'action_source'],
          ]),
          hardcoded: m.hardcoded,
          settings: DEFAULT_FILE_SETTINGS,
          now: NOW,
        });
        const write = createEventWriter();
        for (const values of rows) {
          const r = validate(
            values.map((v, i) =>
              i < headers.length - 3
                ? v
                : ['Lead', '2026-11-23T10:00:00Z', 'physical_store'][i - headers.length + 3]!,
            ),
            2,
          );
          if (r.errors.length) continue;
          written++;
          expect(write(r).match).toBe(matchCode(r.effectiveRow));
        }
      }),
      { numRuns: 500 },
    );
    expect(written).toBeGreaterThan(100);
  });
});
