import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAutoDecoder } from './decoder.ts';

function decodeIn(bytes: Uint8Array, cuts: number[]) {
  const decoder = createAutoDecoder();
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let text = '';
  let from = 0;
  for (const to of [...at, bytes.length]) {
    text += decoder.decode(bytes.subarray(from, to), to === bytes.length);
    from = to;
  }
  return { text, encoding: decoder.encoding };
}
const latin = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('createAutoDecoder', () => {
  // "É" then a no-break space is, by chance, a valid UTF-8 sequence ("ɠ"); the accents after it are not.
  const cp1252 = latin('name,last,city\nJOS\xC9\xA0MARIA,GARC\xCDA,M\xE1laga\nRen\xE9,Dupont,Paris\n');

  it.each([1, 7, 64, 1 << 16])(
    'reads a Windows-1252 file whose first accent looks like UTF-8 (chunks of %i)',
    (size) => {
      const cuts = Array.from({ length: Math.ceil(cp1252.length / size) }, (_, i) => i * size);
      expect(decodeIn(cp1252, cuts)).toEqual({
        text: new TextDecoder('windows-1252').decode(cp1252),
        encoding: 'windows-1252',
      });
    },
  );

  it('keeps a UTF-8 file with one stray byte UTF-8', () => {
    const bytes = new Uint8Array([...utf8('José,Zoë\n'), 0xff, ...utf8('x\n')]);
    expect(decodeIn(bytes, [])).toEqual({ text: 'José,Zoë\n\uFFFDx\n', encoding: 'utf-8' });
  });

  it('decides the same whatever the chunks, for any bytes', () => {
    const bytes = fc
      .array(
        fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(10)),
        {
          maxLength: 300,
        },
      )
      .chain((a) =>
        fc.oneof(
          fc.constant(Uint8Array.from(a)),
          // valid UTF-8 around the random bytes
          fc.string({ unit: 'grapheme' }).map((s) => new Uint8Array([...utf8(s), ...a])),
        ),
      );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (b, cuts) => {
        expect(decodeIn(b, cuts)).toEqual(decodeIn(b, []));
      }),
      { numRuns: 800 },
    );
  });
});
