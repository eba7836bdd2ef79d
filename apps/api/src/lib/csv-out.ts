/**
 * One CSV cell for a spreadsheet: quoted, with formula-leading text neutralised (OWASP CSV injection: a
 * cell starting with = + - @ tab, CR or LF gets a leading apostrophe so Excel never runs it).
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r\n]/.test(s)) s = `'${s}`;
  return /[",\r\n']/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
