import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCsv } from '../csv/read-csv.ts';
import { buildEvent } from '../events/build-event.ts';
import { FIELD_BY_KEY } from '../fields/catalogue.ts';
import { lengthLimit } from '../fields/limits.ts';
import { sha256 } from '../hash/sha256.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator } from './row-validator.ts';
import { withoutTextMarker } from './text-marker.ts';

// Issue 20: for any row, each mapped customer identifier is either in the event as a valid hash of its whole
// normalised value, or the validation result names why it is not there (a drop with its reason, or a row
// error); and no value is ever cut, by the reader or by validation.
const IDENTIFIERS = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'city',
  'state',
  'zip',
  'country',
  'db',
  'gender',
  'external_id',
] as const;
const HEADERS = ['event_name', 'event_time', 'action_source', ...IDENTIFIERS];
const NOW = Date.UTC(2026, 10, 24, 12) / 1000;
const validate = createRowValidator({
  headers: HEADERS,
  mappings: Object.fromEntries(HEADERS.map((h) => [h, h])),
  hardcoded: {},
  settings: DEFAULT_FILE_SETTINGS,
  now: NOW,
});
const HEX64 = /^[0-9a-f]{64}$/;

const realistic = fc.constantFrom(
  'Ann@Example.com',
  'john smith@example.com',
  'ann\u200b@example.com',
  '(650) 555-1212',
  '+44 20 7946 0958',
  "O'Brien",
  'Calif.',
  'Xyz.',
  '美国',
  'Atlantis',
  'Sun Feb 16 1997 00:00:00 GMT+0100 (Central European Standard Time)',
  '1997/16/02',
  '94035-1234',
  'Female',
  'N/A',
  '-',
  'a'.repeat(64),
);
// Around each field's limit, and far past it.
const long = fc
  .tuple(fc.constantFrom(40, 99, 199, 253, 254, 255, 1001, 12_000), fc.constantFrom('a', 'é', ' ', '1', '@'))
  .map(([n, ch]) => ch.repeat(n));
const cell = fc.oneof(realistic, fc.string({ maxLength: 30 }), long);
const rows = fc.dictionary(fc.constantFrom(...IDENTIFIERS), cell, { minKeys: 1, maxKeys: 5 });

describe('each mapped identifier is hashed whole, or the result says why not', () => {
  it('holds for any row', () => {
    fc.assert(
      fc.property(rows, (over) => {
        const values = HEADERS.map(
          (h) =>
            over[h as (typeof IDENTIFIERS)[number]] ??
            (
              {
                event_name: 'Lead',
                event_time: '2026-11-23T10:00:00Z',
                action_source: 'physical_store',
              } as Record<string, string>
            )[h] ??
            '',
        );
        const r = validate(values, 2);
        const event = r.errors.length ? null : buildEvent(r);
        for (const field of IDENTIFIERS) {
          const raw = over[field];
          // A spreadsheet's text marker with nothing after it is an empty text cell, as blank as '' (decision 0096).
          if (raw === undefined || raw.trim() === '' || withoutTextMarker(raw.trim())?.trim() === '')
            continue;
          const def = FIELD_BY_KEY.get(field)!;
          const errored = r.errors.some((e) => e.field === field);
          const dropped = r.drops.some((d) => d.field === field && d.message.length > 0);
          // Past its limit a value is never cut to fit: its row is an error, naming the field. A SHA-256
          // digest is one before the length rule (decision 0096).
          if (raw.trim().length > lengthLimit(def) && !/^[0-9a-f]{64}$/i.test(raw.trim())) {
            expect(errored, `${field} over its limit`).toBe(true);
            expect(r.effectiveRow[field]).toBeUndefined();
            continue;
          }
          const kept = r.effectiveRow[field];
          if (kept === undefined) {
            expect(dropped || errored, `${field} "${raw}" left out without a reason`).toBe(true);
            continue;
          }
          if (!event) continue; // the row is not sent; its errors say why
          const sent = (event.user_data as Record<string, unknown>)[def.metaKey];
          const hashes = Array.isArray(sent) ? sent : [sent];
          expect(
            hashes.every((h) => typeof h === 'string' && HEX64.test(h)),
            `${field} hashed`,
          ).toBe(true);
          // The hash is of the whole normalised value (or the value itself, already a digest).
          expect(hashes).toContain(HEX64.test(kept) ? kept : sha256(kept));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the reader hands every cell on whole, however long', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(long, fc.string({ maxLength: 20 })), { minLength: 1, maxLength: 4 }),
        async (cells) => {
          const quoted = cells.map((c) => `"${c.replace(/"/g, '""')}"`);
          const text = `${cells.map((_, i) => `c${i}`).join(',')}\n${quoted.join(',')}\n`;
          const got: string[][] = [];
          for await (const item of readCsv([new TextEncoder().encode(text)]))
            if (item.kind === 'row') got.push(item.values);
          // A row of blank cells is a blank line, dropped (and told as a notice).
          expect(got).toEqual(cells.every((c) => c.trim() === '') ? [] : [cells]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
