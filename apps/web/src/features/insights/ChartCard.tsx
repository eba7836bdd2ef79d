import { useId, useState, type ReactNode } from 'react';
import { Card } from '../../components/ui/Card.tsx';

/**
 * A chart with its numbers as a table: the toggle is a button (Tab reaches it, its pressed state is announced),
 * and the table is a real one with a caption. On paper (`print`) both are shown, the table below the chart.
 */
export function ChartCard({
  title,
  description,
  chart,
  table,
  empty,
  print = false,
}: {
  title: string;
  description?: ReactNode;
  chart: ReactNode;
  table: ReactNode;
  /** What to do first when there is nothing to draw; replaces chart and table. */
  empty?: ReactNode;
  print?: boolean;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const header = (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div className="min-w-0">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      </div>
      {!empty && !print ? (
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable((t) => !t)}
          className="rounded-md px-2 py-1 text-sm font-medium text-brand-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 print:hidden"
        >
          {asTable ? 'Show chart' : 'Show table'}
        </button>
      ) : null}
    </div>
  );
  const body = empty ?? (asTable ? table : chart);
  if (print)
    // On paper the card may run onto the next page after its chart, never through the title and chart.
    return (
      <Card className="p-4 sm:p-6" aria-labelledby={id} role="region">
        <div className="break-inside-avoid">
          {header}
          <div className="mt-4">{empty ?? chart}</div>
        </div>
        {empty ? null : <div className="mt-4">{table}</div>}
      </Card>
    );
  return (
    <Card className="break-inside-avoid p-4 sm:p-6" aria-labelledby={id} role="region">
      {header}
      <div className="mt-4">{body}</div>
    </Card>
  );
}

/** A table that scrolls sideways on a phone; the scrolling region takes focus so the keyboard can scroll it. */
export function DataTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: readonly string[];
  rows: readonly (readonly ReactNode[])[];
}) {
  return (
    <div className="overflow-x-auto print:overflow-visible" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
          <tr>
            {head.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`whitespace-nowrap px-2 py-2 font-semibold print:whitespace-normal ${i ? 'text-right' : ''}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, ri) => (
            <tr key={ri} className="border-b border-slate-100 last:border-0">
              {r.map((c, i) =>
                i === 0 ? (
                  <th
                    key={i}
                    scope="row"
                    className="whitespace-nowrap px-2 py-1.5 font-normal text-slate-700"
                  >
                    {c}
                  </th>
                ) : (
                  <td key={i} className="whitespace-nowrap px-2 py-1.5 text-right tabular-nums">
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
