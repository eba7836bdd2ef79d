import { useMemo } from 'react';
import { suggestMappings } from '@backsignal/core/browser';
import type { MappedRow } from './mapping-state.ts';
import { suggestionChoices } from './mapping-state.ts';

/**
 * Says why a suggestion took the second-best column by name (decision 0097): "Billing Phone chosen over Phone:
 * Phone is empty in every row." Shown while the row still holds the suggestion.
 */
export function SuggestionChoices({
  rows,
  headers,
  samples,
}: {
  rows: readonly MappedRow[];
  headers: readonly string[];
  samples: Record<string, string[]>;
}) {
  // The suggestions depend on the file only: worked out once, not on every edit of the mapping.
  const choices = useMemo(() => suggestMappings(headers, samples).choices, [headers, samples]);
  const notes = suggestionChoices(rows, choices);
  if (!notes.length) return null;
  return (
    <ul
      aria-label="Why these columns were suggested"
      className="mt-3 space-y-1 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-inset ring-sky-200"
    >
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
