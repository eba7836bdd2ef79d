import { useMemo, useState } from 'react';
import type { ValidationRow } from '@backsignal/contracts';
import { CardTable } from '../../components/ui/CardTable.tsx';
import { formatEventTime, TIME_FIELDS } from '../workflow/event-time-format.ts';
import {
  bySeverity,
  filterLabel,
  hasKind,
  SEVERITIES,
  SEVERITY_LABEL,
  severityOf,
  type Severity,
} from './review-rows.ts';

/** The server previews at most this many rows (spec §9). */
const PREVIEW_LIMIT = 10;

/**
 * The rows to review as a table, most severe first, with a filter per kind. On a phone each row is a card: the
 * columns stack rather than scroll sideways (a scrolled box would need to take focus).
 */
export function ReviewTable({
  rows,
  timeZone,
  totals,
}: {
  rows: readonly ValidationRow[];
  timeZone: string;
  /** The file's own counts per kind (the page's counters): a filter shows how many of them the preview holds. */
  totals?: Partial<Record<Severity, number>>;
}) {
  const [filter, setFilter] = useState<Severity | 'all'>('all');
  const sorted = useMemo(() => bySeverity(rows), [rows]);
  const counts = useMemo(() => {
    const c: Record<Severity, number> = { error: 0, dropped: 0, corrected: 0, warning: 0 };
    for (const r of rows) for (const k of SEVERITIES) if (hasKind(r, k)) c[k]++;
    return c;
  }, [rows]);
  const shown = filter === 'all' ? sorted : sorted.filter((r) => hasKind(r, filter));
  const kinds = SEVERITIES.filter((s) => counts[s] > 0);

  return (
    <details open className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <summary className="cursor-pointer px-6 py-4 text-base font-semibold text-slate-900">
        Rows to review ({rows.length} shown)
        <span className="block text-sm font-normal text-slate-500">
          Most serious first. Times are in the file's time zone ({timeZone}).
          {rows.length >= PREVIEW_LIMIT && ' Download Report lists every row and what was changed.'}
        </span>
      </summary>
      <div className="border-t border-slate-200 px-4 py-3 sm:px-6">
        {kinds.length > 1 && (
          <div role="group" aria-label="Show rows" className="flex flex-wrap gap-2">
            {(['all', ...kinds] as const).map((k) => (
              <button
                key={k}
                type="button"
                aria-pressed={filter === k}
                onClick={() => setFilter(k)}
                className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset ${
                  filter === k
                    ? 'bg-slate-900 text-white ring-slate-900'
                    : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
                }`}
              >
                {k === 'all' ? `All (${rows.length})` : filterLabel(k, counts[k], totals?.[k])}
              </button>
            ))}
          </div>
        )}
        <CardTable className="mt-3" columns={['Row', 'What we found', 'Values after checks']}>
          {shown.map((r) => (
            <ReviewRow key={r.rowNumber} row={r} timeZone={timeZone} />
          ))}
        </CardTable>
      </div>
    </details>
  );
}

function ReviewRow({ row: r, timeZone }: { row: ValidationRow; timeZone: string }) {
  const severity = severityOf(r);
  const label = SEVERITY_LABEL[severity];
  return (
    <tr className="block border-b border-slate-100 py-3 align-top last:border-0 sm:table-row">
      <th scope="row" className="block py-1 pr-3 text-left align-top font-normal sm:table-cell sm:py-3">
        {/* rowNumber is already the CSV line (header = 1), what the spec's "row number + 1" shows. */}
        <span className="font-semibold whitespace-nowrap text-slate-900">Row {r.rowNumber}</span>{' '}
        <span
          className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset sm:block sm:w-fit ${label.badge}`}
        >
          {label.one}
        </span>
      </th>
      <td className="block py-1 pr-3 align-top sm:table-cell sm:py-3">
        <ul className="space-y-1 break-words">
          {r.errors.map((e, i) => (
            <li key={`e${i}`} className="text-red-700">
              <Field name={e.field} />
              {e.message}
            </li>
          ))}
          {r.drops.map((d, i) => (
            <li key={`d${i}`} className="text-amber-800">
              <Field name={d.field} />
              {d.message}
            </li>
          ))}
          {r.corrections.map((c, i) => (
            <li key={`c${i}`} className="text-slate-700">
              <Field name={c.field} />
              {c.message}
            </li>
          ))}
          {r.warnings.map((w, i) => (
            <li key={`w${i}`} className="text-amber-700">
              <Field name={w.field} />
              {w.message}
            </li>
          ))}
        </ul>
      </td>
      <td className="block py-1 align-top sm:table-cell sm:w-2/5 sm:py-3">
        {r.hasErrors && <p className="mb-1 text-xs text-red-700">Not sent while it has errors.</p>}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-lg bg-slate-50 px-3 py-2 text-xs">
          {Object.entries(r.effectiveRow).map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-mono text-slate-500">{k}</dt>
              <dd className="min-w-0 break-all text-slate-800">
                {TIME_FIELDS.has(k) ? formatEventTime(v, timeZone) : v}
              </dd>
            </div>
          ))}
        </dl>
      </td>
    </tr>
  );
}

const Field = ({ name }: { name: string }) => (
  <span className="mr-1 font-mono text-xs text-slate-500">{name}:</span>
);
