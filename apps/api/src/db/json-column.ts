/** A json/jsonb column's value: node-postgres parses it, PGlite may hand over the text. */
export const jsonColumn = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
