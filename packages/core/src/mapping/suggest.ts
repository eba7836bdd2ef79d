import { FULL_NAME, looksLikeNames } from './full-name.ts';
import { candidate, readContext, type Candidate } from './read-header.ts';

export { HEADER_ALIASES, SUGGESTION_TARGETS, toleranceOf } from './targets.ts';
export type Mappings = Record<string, string>;
export type HardcodedValues = Record<string, string>;
/** Column → its first non-empty values in the file (none: the column is empty in every row). */
export type ColumnSamples = Readonly<Record<string, readonly string[]>>;

/**
 * A field given to a column that the header alone would have given to another, because that one is empty in
 * every row of the file: "Billing Phone chosen over Phone: Phone is empty in every row."
 */
export interface SuggestionChoice {
  field: string;
  chosen: string;
  over: string;
}

/**
 * The suggested field for one header, before the one-column-per-field rule. `headers` is the file's whole
 * header row: a bare "ID" is an order's in an order export, a lead's in a Lead Ads download.
 */
export function suggestField(header: string, headers: readonly string[] = [header]): string | null {
  return candidate(header, readContext(headers))?.field ?? null;
}

/** Whether the samples say the column is empty in every row (unknown columns are not). */
const emptyColumn = (samples: ColumnSamples | undefined, header: string) =>
  !!samples && Object.hasOwn(samples, header) && samples[header]!.length === 0;

/**
 * Suggests a field for each header. When several columns claim one field, a column with values wins over one
 * empty in every row (when `samples` are given); then the surest name wins ("Total" over "Lineitem price",
 * "Phone" over "Billing Phone"), and among equally sure names the first column (decision 0014's order). A whole
 * name ("Billing Name") goes to full_name only when no column is first_name or last_name (decision 0097).
 * Answers column → field, field → column, and the choices the samples changed.
 * @example suggestMappings(['Email', 'Phone', 'tel']) // { forward: { Email: 'email', Phone: 'phone' }, ... }
 */
export function suggestMappings(
  headers: readonly string[],
  samples?: ColumnSamples,
): {
  forward: Mappings;
  reverse: Record<string, string>;
  choices: SuggestionChoice[];
} {
  const context = readContext(headers);
  const found = headers
    .map((header, index) => ({
      header,
      index,
      found: candidate(header, context),
      empty: emptyColumn(samples, header),
    }))
    .filter((c): c is typeof c & { found: Candidate } => c.found !== null)
    // A "Name" column of order numbers or emails is no one's name.
    .filter((c) => c.found.field !== FULL_NAME || !samples?.[c.header] || looksLikeNames(samples[c.header]!));
  const bySpec = (a: (typeof found)[number], b: (typeof found)[number]) =>
    a.found.rank - b.found.rank || a.index - b.index;
  const claims = [...found].sort((a, b) => Number(a.empty) - Number(b.empty) || bySpec(a, b));
  const reverse: Record<string, string> = {};
  const taken = new Set<string>();
  for (const { header, found: f } of claims) {
    if (f.field in reverse || taken.has(header)) continue;
    reverse[f.field] = header;
    taken.add(header);
  }
  if (reverse[FULL_NAME] && (reverse.first_name || reverse.last_name)) delete reverse[FULL_NAME];
  const choices: SuggestionChoice[] = [];
  for (const [field, chosen] of Object.entries(reverse)) {
    const first = found.filter((c) => c.found.field === field).sort(bySpec)[0]!;
    if (first.header !== chosen) choices.push({ field, chosen, over: first.header });
  }
  const forward: Mappings = {};
  for (const header of headers) {
    const field = Object.keys(reverse).find((f) => reverse[f] === header);
    if (field) forward[header] = field;
  }
  return { forward, reverse, choices };
}

/** The mapping screen's sentence for a choice the samples made. */
export const choiceMessage = (c: SuggestionChoice): string =>
  `${c.chosen} chosen over ${c.over}: ${c.over} is empty in every row.`;
