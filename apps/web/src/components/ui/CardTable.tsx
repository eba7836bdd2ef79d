import type { ReactNode } from 'react';

/**
 * A table on wide screens that becomes one card per row on a phone (its rows use `block … sm:table-row`): the
 * headings stay for screen readers there. Shared by the rows to review and the preview of what will be sent.
 */
export function CardTable({
  columns,
  className = '',
  children,
}: {
  columns: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={`${className} block w-full text-left text-sm sm:table`.trim()}>
      <thead className="sr-only sm:not-sr-only">
        <tr className="border-b border-slate-200 text-xs text-slate-500 uppercase">
          {columns.map((c, i) => (
            <th
              key={c}
              scope="col"
              className={`py-2 font-medium ${i < columns.length - 1 ? 'pr-3' : ''}`.trim()}
            >
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block sm:table-row-group">{children}</tbody>
    </table>
  );
}
