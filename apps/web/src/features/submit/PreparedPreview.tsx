import type { PreviewResponse } from '@backsignal/contracts';
import { FIELD_BY_KEY } from '@backsignal/core/browser';
import { CardTable } from '../../components/ui/CardTable.tsx';
import { formatEventTime } from '../workflow/event-time-format.ts';

type Detail = PreviewResponse['previewDetails'][number];

// Shown in the event column; everything else the row carries is listed as customer or event data.
const EVENT_KEYS = new Set(['event_name', 'event_time', 'action_source', 'value', 'currency', 'event_id']);

/**
 * What will be sent, as a table: each event's customer data as normalised before hashing, marked "hashed" where
 * Meta receives only its SHA-256 (the JSON, hashes included, is the download). On a phone each event is a card.
 */
export function PreparedPreview({ details, timeZone }: { details: readonly Detail[]; timeZone: string }) {
  return (
    <CardTable columns={['Row', 'Event', 'Customer data (as normalised before hashing)']}>
      {details.map((d) => (
        <PreviewRow key={d.rowNumber} detail={d} timeZone={timeZone} />
      ))}
    </CardTable>
  );
}

function PreviewRow({ detail, timeZone }: { detail: Detail; timeZone: string }) {
  const v = detail.normalized;
  const customer = Object.entries(v).filter(([k]) => FIELD_BY_KEY.get(k)?.placement === 'user_data');
  const other = Object.entries(v).filter(
    ([k]) => !EVENT_KEYS.has(k) && FIELD_BY_KEY.get(k)?.placement !== 'user_data',
  );
  return (
    <tr className="block border-b border-slate-100 py-3 align-top last:border-0 sm:table-row">
      <th
        scope="row"
        className="block py-1 pr-3 text-left align-top font-semibold whitespace-nowrap text-slate-900 sm:table-cell sm:py-3"
      >
        Row {detail.rowNumber}
      </th>
      <td className="block py-1 pr-3 align-top sm:table-cell sm:py-3">
        <p className="font-semibold text-slate-900">{v.event_name}</p>
        {v.event_time && <p className="text-slate-700">{formatEventTime(v.event_time, timeZone)}</p>}
        {v.value && (
          <p className="text-slate-700">
            {v.value} {v.currency}
          </p>
        )}
        <p className="text-xs text-slate-500">{v.action_source}</p>
        {other.length > 0 && (
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs">
            {other.map(([k, val]) => (
              <div key={k} className="contents">
                <dt className="font-mono text-slate-500">{k}</dt>
                <dd className="min-w-0 break-all text-slate-700">{val}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
      <td className="block py-1 align-top sm:table-cell sm:w-1/2 sm:py-3">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-slate-50 px-3 py-2 text-xs">
          {customer.map(([k, val]) => (
            <div key={k} className="contents">
              <dt className="font-mono text-slate-500">{k}</dt>
              <dd className="flex min-w-0 flex-wrap items-center gap-x-2 text-slate-800">
                <span className="break-all">{val}</span>
                {FIELD_BY_KEY.get(k)?.hashed ? (
                  <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-[11px] font-medium text-emerald-800">
                    hashed
                  </span>
                ) : (
                  <span className="text-[11px] text-slate-500">sent as is</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </td>
    </tr>
  );
}
