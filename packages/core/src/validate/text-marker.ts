const LETTER = /\p{L}/u;

/**
 * A cell's value without the apostrophe a spreadsheet writes before a value it must keep as text, or null when
 * the cell has none. Spreadsheets put it before what they would otherwise read as a number, a date or a formula
 * (`'02108`, `'0044 20…`), and CSV writers guarding against formulas put it before = + - @ (ours does:
 * apps/api/src/lib/csv-out.ts writes `'-1200`, `'+1 602…`). Neither ever writes it before a letter, which is
 * where an apostrophe belongs to the value: Dutch `'t Hart` and `'s-Hertogenbosch`, Hawaiian `'Aiea`. A lone
 * apostrophe is an empty text cell. `v` is trimmed and starts with "'" (decision 0096).
 */
export function withoutTextMarker(v: string): string | null {
  if (v.length === 1) return '';
  const next = v[1]!;
  return LETTER.test(next) ? null : v.slice(1);
}
