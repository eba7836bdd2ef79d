import { Link } from '../../lib/ws-router.tsx';
import { useQuery } from '@tanstack/react-query';
import type { DeliveredResponse, SuggestedAccount } from '@backsignal/contracts';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { api } from '../../lib/api.ts';

/** How many of this file's events the account's pixel already received (live, and as test events only). */
export function useDelivered(fileId: string, accountId: string | null) {
  return useQuery({
    queryKey: ['delivered', fileId, accountId],
    queryFn: () => api<DeliveredResponse>(`/api/uploads/${fileId}/delivered?accountId=${accountId}`),
    enabled: !!accountId,
  });
}

/** The account the send step preselects for this file, or none (GET /api/uploads/:id/suggested-account). */
export function useSuggestedAccount(fileId: string) {
  return useQuery({
    queryKey: ['suggested-account', fileId],
    queryFn: () => api<SuggestedAccount>(`/api/uploads/${fileId}/suggested-account`),
    enabled: !!fileId,
    retry: false,
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

/** Every event of the file already reached this pixel live: skipping them leaves nothing to send. */
export function nothingNew(total: number, delivered: DeliveredResponse | undefined, skip: boolean): boolean {
  return skip && total > 0 && !!delivered && delivered.alreadyDelivered >= total;
}

/**
 * In place of a "Send 0 events" button: nothing new would go. Sending anyway repeats the events with their own
 * event IDs (Meta drops a repeat it can match, within its window, and may count an older one twice), so it is a
 * deliberate second choice; going back is the first.
 */
export function NothingNew({ total, onSendAnyway }: { total: number; onSendAnyway: () => void }) {
  const all = total === 1 ? 'The 1 event was' : `All ${total.toLocaleString()} events were`;
  return (
    <div
      role="status"
      className="w-full rounded-xl bg-blue-50 p-4 text-sm ring-1 ring-inset ring-blue-200 sm:flex sm:items-center sm:justify-between sm:gap-4"
    >
      <div>
        <p className="font-semibold text-blue-900">
          {all} already delivered to this pixel. Nothing new would be sent.
        </p>
        <p className="mt-1 text-blue-800">
          Sending them again uses the same event IDs: Meta drops repeats it can match, but may count older
          ones twice. Send again only if they never showed up in Events Manager.
        </p>
      </div>
      <div className="mt-3 flex shrink-0 flex-wrap gap-3 sm:mt-0">
        <Link to="/dashboard" className={buttonClass('primary')}>
          Back to Dashboard
        </Link>
        <Button variant="secondary" onClick={onSendAnyway}>
          Send them again anyway
        </Button>
      </div>
    </div>
  );
}
