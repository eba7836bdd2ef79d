import { canonicalActionSource } from '../validate/values.ts';
import { providedFields } from './rules.ts';
import type { HardcodedValues, Mappings } from './suggest.ts';

/**
 * What Meta needs beside the common fields for an action_source (meta-capi.md §1.4, §1.11), the same fields the
 * row validator asks of each row: a website event without them is refused, an app event takes its batch down.
 */
export const SOURCE_NEEDS: Readonly<Record<string, readonly string[]>> = {
  website: ['event_source_url', 'client_user_agent'],
  app: ['advertiser_tracking_enabled', 'extinfo'],
};

const and = (list: readonly string[]) =>
  list.length < 2 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;

/** "Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url." */
function needs(source: string, missing: readonly string[]): string {
  return `Meta needs ${and(missing)} for ${source} events: map a column or set a fixed value for ${and(missing)}.`;
}

/** A source rule the mapping leaves unmet, seen from the mapping alone (a fixed value) or the column's samples. */
export interface SourceRuleProblem {
  source: string;
  missing: string[];
  /**
   * `fixed`: action_source is a fixed value, so every row fails; `column-all`: every sample value of the mapped
   * column is this source; `column-some`: some are (the rows of other sources are fine).
   */
  scope: 'fixed' | 'column-all' | 'column-some';
  message: string;
}

/**
 * The mapping screen's check, before validation: which per-source fields are missing for the action_source the
 * mapping gives (a fixed value, or the values sampled from its column).
 */
export function sourceRuleProblems(input: {
  mappings: Mappings;
  hardcoded: HardcodedValues;
  samples?: Readonly<Record<string, readonly string[]>>;
}): SourceRuleProblem[] {
  const provided = providedFields(input.mappings, input.hardcoded);
  const column = Object.keys(input.mappings).find((c) => input.mappings[c] === 'action_source');
  const fixed = (input.hardcoded.action_source ?? '').trim();
  let values: string[];
  let fromColumn = false;
  if (column !== undefined) {
    fromColumn = true;
    values = (input.samples?.[column] ?? []).flatMap((v) => canonicalActionSource(v)?.value ?? []);
  } else if (fixed) values = [canonicalActionSource(fixed)?.value ?? ''];
  else return [];
  const out: SourceRuleProblem[] = [];
  for (const [source, fields] of Object.entries(SOURCE_NEEDS)) {
    const missing = fields.filter((f) => !provided.has(f));
    const hits = values.filter((v) => v === source).length;
    if (!missing.length || !hits) continue;
    if (!fromColumn)
      out.push({
        source,
        missing,
        scope: 'fixed',
        message: `action_source is ${source} for every row. ${needs(source, missing)}`,
      });
    else if (hits === values.length)
      out.push({
        source,
        missing,
        scope: 'column-all',
        message: `The action_source column "${column}" reads ${source} in every sample row. ${needs(source, missing)}`,
      });
    else
      out.push({
        source,
        missing,
        scope: 'column-some',
        message: `Some rows of the action_source column "${column}" are ${source} events; those rows will have errors without ${and(missing)}. ${needs(source, missing)}`,
      });
  }
  return out;
}

/**
 * Validation's check over the whole file: when every row is of a source whose fields no column or fixed value
 * gives, that is one mapping problem, said once for the file instead of the same error on every row. Rows of
 * mixed sources keep their row errors.
 */
export function createSourceRuleTracker(input: { mappings: Mappings; hardcoded: HardcodedValues }) {
  const provided = providedFields(input.mappings, input.hardcoded);
  const unmet = Object.entries(SOURCE_NEEDS)
    .map(([source, fields]) => ({ source, missing: fields.filter((f) => !provided.has(f)), rows: 0 }))
    .filter((s) => s.missing.length > 0);
  return {
    add(effectiveRow: Readonly<Record<string, string>>): void {
      for (const s of unmet) if (effectiveRow.action_source === s.source) s.rows++;
    },
    /** The file-level message, or null when some row is of another source (or no row was read). */
    result(rowsChecked: number): string | null {
      const all = rowsChecked > 0 ? unmet.find((s) => s.rows === rowsChecked) : undefined;
      return all ? `Every row is a ${all.source} event. ${needs(all.source, all.missing)}` : null;
    },
  };
}
