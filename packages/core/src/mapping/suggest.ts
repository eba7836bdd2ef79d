import { candidate, readContext, type Candidate } from './read-header.ts';

export { HEADER_ALIASES, SUGGESTION_TARGETS, toleranceOf } from './targets.ts';
export type Mappings = Record<string, string>;
export type HardcodedValues = Record<string, string>;

/**
 * The suggested field for one header, before the one-column-per-field rule. `headers` is the file's whole
 * header row: a bare "ID" is an order's in an order export, a lead's in a Lead Ads download.
 */
export function suggestField(header: string, headers: readonly string[] = [header]): string | null {
  return candidate(header, readContext(headers))?.field ?? null;
}

/**
 * Suggests a field for each header. When several columns claim one field, the surest name wins ("Total" over
 * "Lineitem price", "Phone" over "Billing Phone"), and among equally sure names the first column (decision
 * 0014's order). Answers column → field and field → column.
 * @example suggestMappings(['Email', 'Phone', 'tel']) // { forward: { Email: 'email', Phone: 'phone' }, ... }
 */
export function suggestMappings(headers: readonly string[]): {
  forward: Mappings;
  reverse: Record<string, string>;
} {
  const context = readContext(headers);
  const claims = headers
    .map((header, index) => ({ header, index, found: candidate(header, context) }))
    .filter((c): c is typeof c & { found: Candidate } => c.found !== null)
    .sort((a, b) => a.found.rank - b.found.rank || a.index - b.index);
  const reverse: Record<string, string> = {};
  const taken = new Set<string>();
  for (const { header, found } of claims) {
    if (found.field in reverse || taken.has(header)) continue;
    reverse[found.field] = header;
    taken.add(header);
  }
  const forward: Mappings = {};
  for (const header of headers) {
    const field = Object.keys(reverse).find((f) => reverse[f] === header);
    if (field) forward[header] = field;
  }
  return { forward, reverse };
}
