/**
 * One CSV cell for a spreadsheet, as OWASP's CSV-injection advice asks (security.md §2.8): text starting with
 * = + - @ tab, CR, LF or NUL gets a leading apostrophe so Excel never runs it, and every cell is quoted. Quoting
 * only cells with a comma was not enough: Excel in a locale whose list separator is ";" splits an unquoted
 * `x;=HYPERLINK(…);` at its semicolons, and the middle cell runs as a formula.
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r\n\0]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
