import type { HardcodedValues, Mappings } from '@backsignal/core/browser';
import type { MappedRow } from './mapping-state.ts';

/** One field the template changed: where its value came from before and after (`null`: not mapped). */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}
/** A field the template maps to a column this file lacks, and what it has now (`kept`, or null: left unmapped). */
export interface MissingColumn {
  field: string;
  column: string;
  kept: string | null;
}
export interface TemplateChanges {
  name: string;
  changed: FieldChange[];
  missing: MissingColumn[];
}

/** What a field reads from: its column, or its fixed value in quotes. */
function source(r: MappedRow | undefined): string | null {
  if (!r) return null;
  if (r.mode === 'column') return r.column || null;
  return r.value.trim() ? `fixed value "${r.value.trim()}"` : null;
}

/**
 * What applying a template did to the mapping, for the page to say (issue 29): each field whose source changed,
 * and each field the template could not fill because its column is not in this file.
 */
export function templateChanges(
  name: string,
  before: readonly MappedRow[],
  after: readonly MappedRow[],
  template: { mappings: Mappings; hardcoded: HardcodedValues },
  missingColumns: readonly string[],
): TemplateChanges {
  const missing = missingColumns.flatMap((column) => {
    const field = template.mappings[column];
    return field ? [{ field, column, kept: source(after.find((r) => r.field === field)) }] : [];
  });
  const missingFields = new Set(missing.map((m) => m.field));
  const fields = [...new Set([...before, ...after].map((r) => r.field))];
  const changed = fields.flatMap((field) => {
    const from = source(before.find((r) => r.field === field));
    const to = source(after.find((r) => r.field === field));
    // Newly filled fields are what a template is for; the ones it emptied or moved are what the user must see.
    return from !== null && from !== to && !missingFields.has(field) ? [{ field, from, to }] : [];
  });
  return { name, changed, missing };
}

const fields = (n: number) => `${n} ${n === 1 ? 'field' : 'fields'}`;

/** "Template "Shop" applied: 2 fields changed, 1 field left unmapped." */
export function templateChangesHeadline(c: TemplateChanges): string {
  const parts: string[] = [];
  if (c.changed.length) parts.push(`${fields(c.changed.length)} changed`);
  const unmapped = c.missing.filter((m) => m.kept === null).length;
  const kept = c.missing.length - unmapped;
  if (unmapped) parts.push(`${fields(unmapped)} left unmapped`);
  if (kept) parts.push(`${fields(kept)} kept ${kept === 1 ? 'its' : 'their'} current mapping`);
  return `Template "${c.name}" applied${parts.length ? `: ${parts.join(', ')}` : ''}.`;
}

/** One line per change: "email: Email → Customer Email", "phone: column "Phone" is not in this file". */
export function changeLines(c: TemplateChanges): string[] {
  return [
    ...c.changed.map((x) => `${x.field}: ${x.from} → ${x.to ?? 'not mapped'}`),
    ...c.missing.map(
      (m) =>
        `${m.field}: column "${m.column}" is not in this file${m.kept ? ` (kept ${m.kept})` : ' (left unmapped)'}`,
    ),
  ];
}
