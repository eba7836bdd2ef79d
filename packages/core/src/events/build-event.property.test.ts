import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIELDS } from '../fields/catalogue.ts';
import { buildEvent } from './build-event.ts';

const HASHED = FIELDS.filter((f) => f.hashed);

describe('buildEvent and digests', () => {
  it('never hashes a 64-hex value again, whatever its case', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HASHED), fc.stringMatching(/^[0-9a-fA-F]{64}$/), (field, digest) => {
        const e = buildEvent({
          effectiveRow: {
            event_name: 'Lead',
            event_time: '1',
            action_source: 'other',
            event_id: 'x',
            [field.key]: digest,
          },
        });
        expect(e.user_data[field.metaKey]).toEqual([digest.toLowerCase()]);
      }),
      { numRuns: 200 },
    );
  });
});
