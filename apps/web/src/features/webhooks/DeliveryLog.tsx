import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { WebhookDelivery } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { webhooksApi } from './webhooks-api.ts';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—';

const STATUS: Record<WebhookDelivery['status'], { label: string; className: string }> = {
  succeeded: { label: 'Delivered', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  pending: { label: 'Retrying', className: 'bg-amber-50 text-amber-800 ring-amber-200' },
  failed: { label: 'Failed', className: 'bg-red-50 text-red-800 ring-red-200' },
};

/** An endpoint's deliveries, newest first, refreshed while open; each can be sent again. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const key = ['webhook-deliveries', endpointId];
  const log = useQuery({
    queryKey: key,
    queryFn: () => webhooksApi.deliveries(endpointId),
    refetchInterval: 3000,
  });
  const client = useQueryClient();
  const redeliver = async (d: WebhookDelivery) => {
    try {
      toast.success((await webhooksApi.redeliver(endpointId, d.id)).message);
    } catch (err) {
      toast.error(errorMessage(err, 'The delivery could not be queued again.'));
    }
    await client.invalidateQueries({ queryKey: key });
  };

  if (log.isPending) return <p className="text-sm text-slate-500">Loading deliveries…</p>;
  if (log.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        {errorMessage(log.error, 'Could not load the deliveries.')}
      </p>
    );
  if (!log.data.deliveries.length)
    return <p className="text-sm text-slate-500">No deliveries yet. Send a test event to see one here.</p>;
  return (
    <ul aria-label="Deliveries" className="divide-y divide-slate-100">
      {log.data.deliveries.map((d) => (
        <li key={d.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
          <div className="min-w-0 flex-1">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-slate-900">{d.eventType}</span>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS[d.status].className}`}
              >
                {STATUS[d.status].label}
              </span>
            </p>
            <p className="mt-1 text-slate-600">
              {when(d.lastAttemptAt ?? d.createdAt)}
              {' · '}
              {d.responseStatus !== null
                ? `HTTP ${d.responseStatus}`
                : d.attempts
                  ? 'No answer'
                  : 'Not sent yet'}
              {d.durationMs !== null && ` · ${d.durationMs} ms`}
              {` · ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`}
              {d.nextAttemptAt && d.attempts > 0 && ` · next ${when(d.nextAttemptAt)}`}
            </p>
            {(d.error || d.responseBody) && (
              <p className="mt-1 break-all font-mono text-xs text-slate-500">
                {d.error ?? d.responseBody?.slice(0, 200)}
              </p>
            )}
          </div>
          <Button variant="secondary" className="px-3 py-1" onClick={() => void redeliver(d)}>
            Redeliver
            <span className="sr-only">
              {' '}
              {d.eventType} of {when(d.createdAt)}
            </span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
