/**
 * A file name pattern as owners write it for an SFTP folder (`*.csv`, `leads-??.csv`, `export_*`): `*` is any
 * text, `?` one character, everything else literal. Matched against a name alone (no folders) and regardless of
 * case, since exports are as often `LEADS.CSV` as `leads.csv`.
 */
export function globToRegExp(pattern: string): RegExp {
  const body = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'is');
}

export const matchesGlob = (pattern: string, name: string) => globToRegExp(pattern).test(name);
