/**
 * bytea (type 17) for PGlite through Buffer's native hex codec. PGlite's own codec maps every byte through a
 * JavaScript closure (`Array.from(bytes).map(toString(16))` one way, `parseInt` per pair the other): 73 ms to
 * write a 64 KB upload chunk, most of the upload's CPU and half of validation's. Plain JavaScript: the database
 * thread (pglite.worker.mjs) runs without the TypeScript loader.
 */
export const BYTEA = 17;

/** @param {unknown} x */
export function serializeBytea(x) {
  if (!(x instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return '\\x' + Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex');
}

/**
 * Text form `\x…` (the only one PostgreSQL sends with bytea_output = hex, the default).
 * @param {string} x
 */
export function parseBytea(x) {
  const b = Buffer.from(x.slice(2), 'hex');
  // A plain Uint8Array as before (a Buffer answers differently to equality checks and toString).
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
