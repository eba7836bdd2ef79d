import type { CsvEncoding } from './types.ts';

const ASCII = new TextDecoder('utf-8');

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

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Streaming decoder that settles a file's encoding at its first non-ASCII byte, wherever that is: an
 * accent on row 7,000 of an otherwise plain file decides as well as one on row 1. Everything decoded before
 * is ASCII, which reads the same in both encodings, so nothing has to be decoded twice. If that character is
 * not valid UTF-8, the whole file is Windows-1252 (Excel on Windows); later invalid bytes in a UTF-8 file are
 * replaced with U+FFFD and reported.
 */
export function createAutoDecoder(fixed?: CsvEncoding) {
  let inner = fixed ? new TextDecoder(fixed) : null;
  let encoding: CsvEncoding | null = fixed ?? null;
  let held: Uint8Array | null = null;

  return {
    /** The encoding once decided; null while every byte so far was ASCII. */
    get encoding() {
      return encoding;
    },
    decode(chunk: Uint8Array, final: boolean): string {
      if (inner) return inner.decode(chunk, { stream: !final });
      let bytes = chunk;
      if (held) {
        bytes = new Uint8Array(held.length + chunk.length);
        bytes.set(held);
        bytes.set(chunk, held.length);
        held = null;
      }
      const i = firstNonAscii(bytes);
      if (i === -1) return ASCII.decode(bytes);
      const rest = bytes.subarray(i);
      const n = sequenceLength(rest[0]!);
      if (n > rest.length && !final) {
        // The sequence is cut by the chunk boundary: wait for the bytes that complete it.
        held = rest.slice();
        return ASCII.decode(bytes.subarray(0, i));
      }
      // Only this one sequence decides, so the answer never depends on how the bytes were chunked.
      encoding = n && n <= rest.length && isUtf8(rest.subarray(0, n)) ? 'utf-8' : 'windows-1252';
      inner = new TextDecoder(encoding);
      return ASCII.decode(bytes.subarray(0, i)) + inner.decode(rest, { stream: !final });
    },
  };
}
