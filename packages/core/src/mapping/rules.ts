import { REQUIRED_FIELDS } from '../fields/catalogue.ts';
import type { HardcodedValues, Mappings } from './suggest.ts';

const hasHardcoded = (hardcoded: HardcodedValues, field: string) => (hardcoded[field] ?? '').trim() !== '';

/** Fields that have a source: a mapped column or a non-blank hardcoded value. */
export function providedFields(mappings: Mappings, hardcoded: HardcodedValues): Set<string> {
  const out = new Set(Object.values(mappings).filter(Boolean));
  for (const f of Object.keys(hardcoded)) if (hasHardcoded(hardcoded, f)) out.add(f);
  return out;
}

/**
 * Spec §5 mapping rules in order; the first failing rule's exact message, or null when the user may continue.
 * `mappedFields` are the fields listed in Mapped Fields (each must have a column or a value).
 */
export function mappingProblem(input: {
  mappings: Mappings;
  hardcoded: HardcodedValues;
  mappedFields?: readonly string[];
}): string | null {
  const provided = providedFields(input.mappings, input.hardcoded);
  const missing = REQUIRED_FIELDS.filter((f) => !provided.has(f));
  if (missing.length) return `Missing required fields: ${missing.join(', ')}`;
  if (!provided.has('email') && !provided.has('phone')) {
    return 'You must map at least one user identifier field eg. email, phone.';
  }
  if (input.mappedFields?.some((f) => !provided.has(f))) {
    return 'All fields in the Mapped Fields section must be mapped or hardcoded.';
  }
  return null;
}

/** Drops mappings whose column is no longer in the file (spec §4 mapping load); names the dropped columns. */
export function pruneMappings(
  headers: readonly string[],
  mappings: Mappings,
): { mappings: Mappings; removed: string[] } {
  const present = new Set(headers);
  const kept: Mappings = {};
  const removed: string[] = [];
  for (const [column, field] of Object.entries(mappings)) {
    if (present.has(column)) kept[column] = field;
    else removed.push(column);
  }
  return { mappings: kept, removed };
}
