import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** How many of this file's events the pixel already received, with the choice to skip them (the default). */
export function DeliveredBefore({ fileId, accountId, skip, onSkipChange }: { fileId: string; accountId: string; skip: boolean; onSkipChange: (v: boolean) => void }) {
  const q = useQuery({
    queryKey: ['delivered', fileId, accountId],
    queryFn: () => api<{ alreadyDelivered: number }>(`/api/uploads/${fileId}/delivered?accountId=${accountId}`),
  });
  if (!q.data?.alreadyDelivered) return null;
  return (
    <fieldset className="rounded-xl bg-blue-50 p-4 text-sm ring-1 ring-inset ring-blue-200">
      <legend className="sr-only">Events already delivered</legend>
      <p className="font-medium text-blue-900">{q.data.alreadyDelivered.toLocaleString()} of these events were already delivered to this pixel.</p>
      <label className="mt-2 flex items-center gap-2">
        <input type="radio" name="skip" checked={skip} onChange={() => onSkipChange(true)} /> Skip them (recommended: Meta would count them twice)
      </label>
      <label className="mt-1 flex items-center gap-2">
        <input type="radio" name="skip" checked={!skip} onChange={() => onSkipChange(false)} /> Send them anyway
      </label>
    </fieldset>
  );
}
