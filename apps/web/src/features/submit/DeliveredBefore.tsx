import { useQuery } from '@tanstack/react-query';
import type { DeliveredResponse } from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

/** How many of this file's events the account's pixel already received (live, and as test events only). */
export function useDelivered(fileId: string, accountId: string | null) {
  return useQuery({
    queryKey: ['delivered', fileId, accountId],
    queryFn: () => api<DeliveredResponse>(`/api/uploads/${fileId}/delivered?accountId=${accountId}`),
    enabled: !!accountId,
  });
}

/**
 * The choice to skip events the pixel already received (the default). Only live deliveries are skipped; rows
 * sent before only as test events are reported apart and always sent again.
 */
export function DeliveredBefore({
  delivered,
  skip,
  onSkipChange,
}: {
  delivered: DeliveredResponse | undefined;
  skip: boolean;
  onSkipChange: (v: boolean) => void;
}) {
  const live = delivered?.alreadyDelivered ?? 0;
  const test = delivered?.alreadyDeliveredTest ?? 0;
  if (!live && !test) return null;
  return (
    <div className="space-y-3">
      {live > 0 && (
        <fieldset className="rounded-xl bg-blue-50 p-4 text-sm ring-1 ring-inset ring-blue-200">
          <legend className="sr-only">Events already delivered</legend>
          <p className="font-medium text-blue-900">
            {live.toLocaleString()} of these rows were already sent to this pixel.
          </p>
          <label className="mt-2 flex items-center gap-2">
            <input type="radio" name="skip" checked={skip} onChange={() => onSkipChange(true)} /> Skip them
            (recommended: Meta would count them twice)
          </label>
          <label className="mt-1 flex items-center gap-2">
            <input type="radio" name="skip" checked={!skip} onChange={() => onSkipChange(false)} /> Send them
            anyway
          </label>
        </fieldset>
      )}
      {test > 0 && (
        <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
          {test.toLocaleString()} of these rows were sent to this pixel before as test events only. They are
          not skipped: this send delivers them again.
        </p>
      )}
    </div>
  );
}

/** Events the send button promises: the prepared count, less those to be skipped as already delivered. */
export function eventsToSend(total: number, delivered: DeliveredResponse | undefined, skip: boolean): number {
  return skip ? Math.max(0, total - (delivered?.alreadyDelivered ?? 0)) : total;
}
