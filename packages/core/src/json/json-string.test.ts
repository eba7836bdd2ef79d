import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonString, jsonStringBody } from './json-string.ts';

describe('jsonString', () => {
  it('writes what JSON.stringify writes for any string', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', '\u001f', '\ud83d', '\ude00', 'é') }),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
        expect(`"${jsonStringBody(s)}"`).toBe(JSON.stringify(s));
      }),
      { numRuns: 500 },
    );
  });
});
