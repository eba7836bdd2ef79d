import type { CsvEncoding } from './types.ts';

const ASCII = new TextDecoder('utf-8');

// What Windows-1252 has at bytes 0x80–0x9F (the WHATWG table; 0x81, 0x8D, 0x8F, 0x90 and 0x9D have nothing).
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1 = /[\u0080-\u009f]/g;

/**
 * A TextDecoder for the encoding. Node's 'windows-1252' decoder reads bytes 0x80–0x9F as Latin-1's invisible
 * control characters, so "€" and "’" came out as U+0080 and U+0092: they are put right here.
 */
function textDecoder(encoding: CsvEncoding): { decode(b: Uint8Array, o: { stream: boolean }): string } {
  const inner = new TextDecoder(encoding);
  if (encoding !== 'windows-1252') return inner;
  return {
    decode(b, o) {
      const text = inner.decode(b, o);
      return text.replace(C1, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
    },
  };
}

/** Index of the first byte outside ASCII, or -1. */
function firstNonAscii(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

/** Bytes in the UTF-8 sequence a lead byte starts; 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Whether the `n`-byte sequence at `i` is well-formed UTF-8: no overlong forms, surrogates or code points past
 * U+10FFFF.
 */
function wellFormed(bytes: Uint8Array, i: number, n: number): boolean {
  const lead = bytes[i]!;
  const second = bytes[i + 1]!;
  const [low, high] =
    lead === 0xe0
      ? [0xa0, 0xbf]
      : lead === 0xed
        ? [0x80, 0x9f]
        : lead === 0xf0
          ? [0x90, 0xbf]
          : lead === 0xf4
            ? [0x80, 0x8f]
            : [0x80, 0xbf];
  if (second < low || second > high) return false;
  for (let k = 2; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return false;
  return true;
}

/**
 * Whether the bytes read as UTF-8: at least as many well-formed multi-byte sequences as bytes that break the
 * rules. A Windows-1252 accent is followed by a letter or a space, which UTF-8 forbids, so such a file breaks
 * them at nearly every accent, though one may by chance look valid ("É" then a no-break space is "ɠ"); a UTF-8
 * file breaks them only at a stray byte. A sequence cut by the end of `bytes` counts only at the end of the file.
 */
function readsAsUtf8(bytes: Uint8Array, atEnd: boolean): boolean {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length;) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const n = sequenceLength(bytes[i]!);
    if (n && i + n > bytes.length) {
      if (atEnd) invalid++;
      break;
    }
    if (n && wellFormed(bytes, i, n)) {
      valid++;
      i += n;
    } else {
      invalid++;
      i++;
    }
  }
  return valid > 0 && valid >= invalid;
}

/** Bytes from the first non-ASCII one that decide the encoding: enough text to hold several accents. */
const EVIDENCE = 16 * 1024;

/**
 * Streaming decoder that settles a file's encoding at its first non-ASCII byte, wherever that is: an
 * accent on row 7,000 of an otherwise plain file decides as well as one on row 1. Everything decoded before
 * is ASCII, which reads the same in both encodings, so nothing has to be decoded twice. The 16 KB from that
 * byte on decide (see readsAsUtf8): Windows-1252 (Excel on Windows) when they do not read as UTF-8. They are
 * fixed places in the file, so the answer never depends on how the bytes were chunked. Later invalid bytes
 * in a UTF-8 file are replaced with U+FFFD and reported.
 */
export function createAutoDecoder(fixed?: CsvEncoding) {
  let inner = fixed ? textDecoder(fixed) : null;
  let encoding: CsvEncoding | null = fixed ?? null;
  // From the first non-ASCII byte on, until there are enough bytes to decide (copies: callers reuse buffers).
  let pending: Uint8Array[] = [];
  let pendingLength = 0;

  /** The pending bytes' text once they decide the encoding; '' while they cannot yet. */
  const settle = (final: boolean): string => {
    if (pendingLength < EVIDENCE && !final) return '';
    const rest = new Uint8Array(pendingLength);
    let at = 0;
    for (const p of pending) {
      rest.set(p, at);
      at += p.length;
    }
    pending = [];
    pendingLength = 0;
    const evidence = rest.subarray(0, EVIDENCE);
    encoding = readsAsUtf8(evidence, final && evidence.length === rest.length) ? 'utf-8' : 'windows-1252';
    inner = textDecoder(encoding);
    return inner.decode(rest, { stream: !final });
  };

  return {
    /** The encoding once decided; null while every byte so far was ASCII. */
    get encoding() {
      return encoding;
    },
    decode(chunk: Uint8Array, final: boolean): string {
      if (inner) return inner.decode(chunk, { stream: !final });
      if (pendingLength) {
        pending.push(chunk.slice());
        pendingLength += chunk.length;
        return settle(final);
      }
      const i = firstNonAscii(chunk);
      if (i === -1) return ASCII.decode(chunk);
      pending.push(chunk.slice(i));
      pendingLength = chunk.length - i;
      return ASCII.decode(chunk.subarray(0, i)) + settle(final);
    },
  };
}
