/**
 * A file name pattern as owners write it for an SFTP folder (`*.csv`, `leads-??.csv`, `export_*`): `*` is any
 * text, `?` one character, everything else literal. Matched against a name alone (no folders) and regardless of
 * case, since exports are as often `LEADS.CSV` as `leads.csv`.
 *
 * Not a regular expression: `^.*a.*a.*…b$` backtracks exponentially, and `*a*a*a*a*a*a*a*ab` against a 60-letter
 * name took 30 s of the worker's CPU. This greedy matcher (back to the last `*` only) is at most pattern × name.
 */
export function globMatcher(pattern: string): (name: string) => boolean {
  const p = [...pattern.toLowerCase()];
  return (name: string) => {
    const n = [...name.toLowerCase()];
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (j < n.length) {
      if (i < p.length && (p[i] === '?' || (p[i] !== '*' && p[i] === n[j]))) {
        i++;
        j++;
      } else if (i < p.length && p[i] === '*') {
        star = i++;
        resume = j;
      } else if (star >= 0) {
        i = star + 1;
        j = ++resume;
      } else return false;
    }
    while (i < p.length && p[i] === '*') i++;
    return i === p.length;
  };
}

export const matchesGlob = (pattern: string, name: string) => globMatcher(pattern)(name);
