import { useQuery } from '@tanstack/react-query';
import type { DeliveredResponse } from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

/**
 * How many of this file's events the pixel already received, with the choice to skip them (the default). Only
 * live deliveries are skipped; rows sent before only as test events are reported apart and always sent again.
 */
export function DeliveredBefore({
  fileId,
  accountId,
  skip,
  onSkipChange,
}: {
  fileId: string;
  accountId: string;
  skip: boolean;
  onSkipChange: (v: boolean) => void;
}) {
  const q = useQuery({
    queryKey: ['delivered', fileId, accountId],
    queryFn: () => api<DeliveredResponse>(`/api/uploads/${fileId}/delivered?accountId=${accountId}`),
  });
  const live = q.data?.alreadyDelivered ?? 0;
  const test = q.data?.alreadyDeliveredTest ?? 0;
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
