import {
  choiceMessage,
  fieldsOfGroup,
  FULL_NAME,
  pruneMappings,
  REQUIRED_FIELDS,
  suggestMappings,
  type ColumnSamples,
  type HardcodedValues,
  type Mappings,
  type SuggestionChoice,
} from '@backsignal/core/browser';

export interface MappedRow {
  field: string;
  mode: 'column' | 'hardcoded';
  column: string;
  value: string;
  auto: boolean;
}

const blank = (field: string, auto = false): MappedRow => ({
  field,
  mode: 'column',
  column: '',
  value: '',
  auto,
});
const withRequired = (rows: MappedRow[]) => [
  ...REQUIRED_FIELDS.filter((f) => !rows.some((r) => r.field === f)).map((f) => blank(f)),
  ...rows,
];
const REQUIRED: readonly string[] = REQUIRED_FIELDS;
/**
 * The customer-information fields (email, phone, external_id, names, address, ...) in the catalogue's order, a
 * whole name (decision 0097) just before the first and last name it fills.
 */
const IDENTIFIERS: readonly string[] = fieldsOfGroup('user').flatMap((f) =>
  f.key === 'first_name' ? [FULL_NAME, f.key] : [f.key],
);
/** Required fields first, in their spec order; then the identifiers, in the catalogue's; the rest as added. */
const ordered = (rows: MappedRow[]) => {
  const by = (list: readonly string[]) => (a: MappedRow, b: MappedRow) =>
    list.indexOf(a.field) - list.indexOf(b.field);
  return [
    ...rows.filter((r) => REQUIRED.includes(r.field)).sort(by(REQUIRED)),
    ...rows.filter((r) => IDENTIFIERS.includes(r.field)).sort(by(IDENTIFIERS)),
    ...rows.filter((r) => !REQUIRED.includes(r.field) && !IDENTIFIERS.includes(r.field)),
  ];
};

/** Mapped Fields from a saved mapping (spec §3: column → field, plus hardcoded values by field). */
export function fromSaved(mappings: Mappings, hardcoded: HardcodedValues): MappedRow[] {
  const rows: MappedRow[] = Object.entries(mappings).map(([column, field]) => ({
    field,
    mode: 'column',
    column,
    value: '',
    auto: false,
  }));
  for (const [field, value] of Object.entries(hardcoded)) {
    if (!rows.some((r) => r.field === field))
      rows.push({ field, mode: 'hardcoded', column: '', value, auto: false });
  }
  return ordered(withRequired(rows));
}

/**
 * A saved template applied to this file. Its columns missing from the file are named; their fields keep what
 * they had (a suggestion, a choice) instead of being blanked, as long as nothing the template fills uses it.
 */
export function applyTemplate(
  rows: MappedRow[],
  headers: readonly string[],
  mappings: Mappings,
  hardcoded: HardcodedValues,
): { rows: MappedRow[]; missing: string[] } {
  const { mappings: present, removed } = pruneMappings(headers, mappings);
  const next = fromSaved(present, hardcoded);
  const used = new Set(Object.keys(present));
  for (const column of removed) {
    const field = mappings[column]!;
    const current = rows.find((r) => r.field === field);
    if (!current || next.some((r) => r.field === field && (r.column || r.value.trim()))) continue;
    if (current.mode === 'column' && (!current.column || used.has(current.column))) continue;
    if (current.mode === 'hardcoded' && !current.value.trim()) continue;
    const kept = { ...current };
    const at = next.findIndex((r) => r.field === field);
    if (at >= 0) next[at] = kept;
    else next.push(kept);
    if (kept.mode === 'column') used.add(kept.column);
  }
  return { rows: ordered(next), missing: removed };
}

/** Field → column of the rows still as the suggestions left them (column mode, untouched by the user). */
export function autoMapped(rows: MappedRow[]): Record<string, string> {
  return Object.fromEntries(
    rows.filter((r) => r.auto && r.mode === 'column' && r.column).map((r) => [r.field, r.column]),
  );
}

/**
 * Flags again the rows a saved mapping still holds exactly as suggested. A row whose column differs was changed
 * since (here or elsewhere) and stays the user's own, so Clear Suggestions never removes a choice.
 */
export const markAuto = (rows: MappedRow[], auto: Record<string, string>): MappedRow[] =>
  rows.map((r) => (r.mode === 'column' && r.column && auto[r.field] === r.column ? { ...r, auto: true } : r));

const hasSource = (r: MappedRow) => (r.mode === 'column' ? !!r.column : !!r.value.trim());

/**
 * Merges the suggestions into the list, flagged auto-mapped; fields and columns already used are left alone. With
 * the columns' samples, a column with values wins over one empty in every row (decision 0097). A whole name is
 * not suggested where the first or last name already has a source.
 */
export function applySuggestions(
  rows: MappedRow[],
  headers: readonly string[],
  samples?: ColumnSamples,
): MappedRow[] {
  const { reverse } = suggestMappings(headers, samples);
  const used = new Set(rows.filter((r) => r.mode === 'column' && r.column).map((r) => r.column));
  const next = rows.map((r) => ({ ...r }));
  const named = rows.some((r) => (r.field === 'first_name' || r.field === 'last_name') && hasSource(r));
  for (const [field, column] of Object.entries(reverse)) {
    if (used.has(column) || (field === FULL_NAME && named)) continue;
    const existing = next.find((r) => r.field === field);
    if (existing) {
      if (existing.mode === 'column' && !existing.column) Object.assign(existing, { column, auto: true });
      else continue;
    } else next.push({ field, mode: 'column', column, value: '', auto: true });
    used.add(column);
  }
  return ordered(withRequired(next));
}

/** Removes only auto-mapped entries; required fields stay, emptied. */
export const clearSuggestions = (rows: MappedRow[]) =>
  ordered(
    withRequired(
      rows
        .filter((r) => !r.auto)
        .concat(
          rows
            .filter((r) => r.auto && (REQUIRED_FIELDS as readonly string[]).includes(r.field))
            .map((r) => blank(r.field)),
        ),
    ),
  );

export const clearAll = (): MappedRow[] => ordered(withRequired([]));

export function toPayload(rows: MappedRow[]): { mappings: Mappings; hardcodedValues: HardcodedValues } {
  const mappings: Mappings = {};
  const hardcodedValues: HardcodedValues = {};
  for (const r of rows) {
    if (r.mode === 'column' && r.column) mappings[r.column] = r.field;
    if (r.mode === 'hardcoded' && r.value.trim()) hardcodedValues[r.field] = r.value;
  }
  return { mappings, hardcodedValues };
}

export const addField = (rows: MappedRow[], field: string) =>
  rows.some((r) => r.field === field) ? rows : [...rows, blank(field)];
export const removeField = (rows: MappedRow[], field: string) =>
  (REQUIRED_FIELDS as readonly string[]).includes(field) ? rows : rows.filter((r) => r.field !== field);
export const updateRow = (rows: MappedRow[], field: string, patch: Partial<MappedRow>) =>
  rows.map((r) =>
    r.field === field
      ? { ...r, ...patch, auto: patch.column !== undefined || patch.value !== undefined ? false : r.auto }
      : r,
  );
/** Switching mode clears the other mode's value (spec §3). */
export const toggleMode = (rows: MappedRow[], field: string) =>
  rows.map((r) =>
    r.field === field
      ? {
          ...r,
          mode: r.mode === 'column' ? ('hardcoded' as const) : ('column' as const),
          column: '',
          value: '',
          auto: false,
        }
      : r,
  );

const SAMPLE_CHARS = 24;

/** A column choice with a sample value beside it, so the user can tell columns apart: `Email — e.g. ann@…`. */
export function columnOptionLabel(header: string, sample: string | undefined, inUse: boolean): string {
  const s = sample?.trim();
  const shown = s ? ` — e.g. ${s.length > SAMPLE_CHARS ? `${s.slice(0, SAMPLE_CHARS - 1)}…` : s}` : '';
  return `${header}${shown}${inUse ? ' (in use)' : ''}`;
}

/**
 * Undoes a whole-name mapping (decision 0097): the full-name row gives way to first and last name rows, empty,
 * for the user to map one column to each.
 */
export const mapNamesSeparately = (rows: MappedRow[]): MappedRow[] =>
  ordered(
    addField(
      addField(
        rows.filter((r) => r.field !== FULL_NAME),
        'first_name',
      ),
      'last_name',
    ),
  );

/**
 * The mapping screen's notes for suggestions the samples decided ("Billing Phone chosen over Phone: Phone is
 * empty in every row."), for the rows that still hold them as suggested.
 */
export function suggestionChoices(
  rows: readonly MappedRow[],
  choices: readonly SuggestionChoice[],
): string[] {
  return choices
    .filter((c) => rows.some((r) => r.auto && r.field === c.field && r.column === c.chosen))
    .map(choiceMessage);
}
