import { FULL_NAME, FULL_NAME_FIELD, splitFullName } from '@backsignal/core/browser';
import { Button } from '../../components/ui/Button.tsx';
import {
  columnOptionLabel,
  mapNamesSeparately,
  removeField,
  updateRow,
  type MappedRow,
} from './mapping-state.ts';

const Key = ({ name }: { name: string }) => (
  <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs font-normal text-slate-600">
    {name}
  </code>
);

/** How the first sample splits: `"Dr. Ann van der Berg" → first name Ann, last name van der Berg`. */
export function SplitExample({ sample }: { sample: string | undefined }) {
  const s = sample && splitFullName(sample);
  if (!s) return null;
  return (
    <p className="mt-1 text-xs break-words text-slate-600" data-testid="name-split-example">
      e.g. <span className="font-mono text-slate-700">"{sample}"</span> → first name{' '}
      <strong className="font-semibold text-slate-800">{s.first}</strong>
      {s.last ? (
        <>
          , last name <strong className="font-semibold text-slate-800">{s.last}</strong>
        </>
      ) : (
        ' (no last name)'
      )}
    </p>
  );
}

/**
 * A Mapped Fields row for a column holding whole names (decision 0097): it shows that the column feeds first and
 * last name, with the split of a sample, and offers to map first and last name separately instead.
 */
export function FullNameRow({
  row,
  headers,
  samples,
  used,
  onChange,
}: {
  row: MappedRow;
  headers: string[];
  samples: Record<string, string[]>;
  used: Map<string, string>;
  onChange: (f: (rows: MappedRow[]) => MappedRow[]) => void;
}) {
  const id = `map-${FULL_NAME}`;
  return (
    <li className="rounded-xl border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0">
          <label htmlFor={id} className="font-medium text-slate-900">
            {FULL_NAME_FIELD.label}
          </label>{' '}
          <span className="text-sm text-slate-600">
            → First name <Key name="first_name" /> and Last name <Key name="last_name" />
          </span>
        </span>
        {row.auto && (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-inset ring-brand-100">
            Auto-Mapped
          </span>
        )}
        <span className="ml-auto flex gap-1">
          <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => onChange(mapNamesSeparately)}>
            Map first and last name separately
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-1 text-xs text-red-700"
            onClick={() => onChange((r) => removeField(r, FULL_NAME))}
            aria-label={`Remove ${FULL_NAME}`}
          >
            Remove
          </Button>
        </span>
      </div>
      <p className="mt-0.5 text-xs text-slate-500">
        Each name is split into first and last name, then normalised and hashed like its own column. Particles
        (van, de la, von, bin…) go with the last name, titles and suffixes (Mr, Dr, Jr) are left out, and
        “Smith, John” reads as last name first.
      </p>
      <div className="mt-2">
        <select
          id={id}
          value={row.column}
          onChange={(e) => onChange((r) => updateRow(r, FULL_NAME, { column: e.target.value }))}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value="">Select a CSV column</option>
          {headers.map((h) => {
            const inUse = used.has(h) && used.get(h) !== FULL_NAME;
            return (
              <option key={h} value={h} disabled={inUse}>
                {columnOptionLabel(h, samples[h]?.[0], inUse)}
              </option>
            );
          })}
        </select>
        <SplitExample sample={row.column ? samples[row.column]?.[0] : undefined} />
      </div>
    </li>
  );
}
