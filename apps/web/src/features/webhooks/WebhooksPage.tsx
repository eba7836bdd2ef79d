import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage, fieldError } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useCan } from '../../lib/workspace.tsx';
import { Link } from '../../lib/ws-router.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { webhooksApi } from './webhooks-api.ts';

const KEY = ['webhooks'];

/** Settings → Webhooks: endpoints that receive the workspace's events, signed (decision 0117). Owners and admins. */
export function WebhooksPage() {
  usePageMeta({ title: 'Webhooks | Backsignal' });
  const allowed = useCan('admin');
  const list = useQuery({ queryKey: KEY, queryFn: webhooksApi.list, enabled: allowed });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/settings" className="font-semibold text-brand-700 hover:underline">
            ← Settings
          </Link>
        </p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Webhooks</h1>
        <p className="mt-2 text-sm text-slate-600">
          Backsignal POSTs a signed JSON message to your endpoint when a send finishes or stops, a source run
          finishes, a source pauses, or Meta refuses a pixel account&apos;s token. Messages carry ids, counts
          and statuses, never your customers&apos; data, and are signed per the Standard Webhooks
          specification.
        </p>
      </div>
      {!allowed ? (
        <Card>
          <p className="text-sm text-slate-600">
            Only admins and owners of this workspace can manage webhooks.
          </p>
        </Card>
      ) : (
        <>
          <AddEndpoint onCreated={(url, s) => setSecret({ url, secret: s })} />
          {list.isPending ? (
            <Spinner label="Loading endpoints..." />
          ) : list.isError ? (
            <Card>
              <p role="alert" className="text-sm text-red-700">
                {errorMessage(list.error, 'Could not load the webhook endpoints.')}
              </p>
              <Button variant="secondary" className="mt-3" onClick={() => void list.refetch()}>
                Try again
              </Button>
            </Card>
          ) : list.data.endpoints.length === 0 ? (
            <Card>
              <p className="text-sm text-slate-600">No endpoints yet. Add one above to receive events.</p>
            </Card>
          ) : (
            <ul aria-label="Webhook endpoints" className="space-y-4">
              {list.data.endpoints.map((e) => (
                <EndpointCard
                  key={e.id}
                  endpoint={e}
                  onSecret={(s) => setSecret({ url: e.url, secret: s })}
                />
              ))}
            </ul>
          )}
        </>
      )}
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </section>
  );
}

function EventChoices({
  value,
  onChange,
}: {
  value: WebhookEventType[];
  onChange: (v: WebhookEventType[]) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {WEBHOOK_EVENT_TYPES.map((t) => (
          <label key={t} className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 rounded border-slate-300"
              checked={value.includes(t)}
              onChange={(e) => onChange(e.target.checked ? [...value, t] : value.filter((x) => x !== t))}
            />
            <span>
              {WEBHOOK_EVENT_LABELS[t]} <span className="font-mono text-xs text-slate-500">{t}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function AddEndpoint({ onCreated }: { onCreated: (url: string, secret: string) => void }) {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['send.completed', 'send.failed']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ url?: string; form?: string }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return setError({ url: 'Enter the URL that receives the events.' });
    if (!events.length) return setError({ form: 'Choose at least one event.' });
    setBusy(true);
    setError({});
    try {
      const created = await webhooksApi.create({ url, description, events });
      setUrl('');
      setDescription('');
      onCreated(created.endpoint.url, created.secret);
      await client.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      setError({ url: fieldError(err, 'url', 'The endpoint could not be added.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">Add an endpoint</h2>
      <form onSubmit={(e) => void submit(e)} className="mt-4 space-y-4" noValidate>
        <TextField
          label="Endpoint URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/backsignal"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={error.url}
          required
        />
        <TextField
          label="Description (optional)"
          value={description}
          maxLength={200}
          onChange={(e) => setDescription(e.target.value)}
        />
        <EventChoices value={events} onChange={setEvents} />
        {error.form && (
          <p role="alert" className="text-sm text-red-700">
            {error.form}
          </p>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? 'Adding...' : 'Add endpoint'}
        </Button>
      </form>
    </Card>
  );
}

function EndpointCard({
  endpoint: e,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onSecret: (s: string) => void;
}) {
  const client = useQueryClient();
  const [logOpen, setLogOpen] = useState(false);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const [busy, setBusy] = useState(false);
  const logId = `log-${e.id}`;

  const act = async (work: () => Promise<string | void>) => {
    setBusy(true);
    try {
      const message = await work();
      if (message) toast.success(message);
    } catch (err) {
      toast.error(errorMessage(err, 'That did not work. Please try again.'));
    } finally {
      setBusy(false);
      setConfirm(null);
      await client.invalidateQueries({ queryKey: KEY });
      await client.invalidateQueries({ queryKey: ['webhook-deliveries', e.id] });
    }
  };

  return (
    <li>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="break-all font-mono text-sm font-semibold text-slate-900">{e.url}</h2>
            {e.description && <p className="mt-1 text-sm text-slate-600">{e.description}</p>}
          </div>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${e.enabled ? 'bg-emerald-50 text-emerald-800 ring-emerald-200' : 'bg-slate-100 text-slate-700 ring-slate-300'}`}
          >
            {e.enabled ? 'Enabled' : 'Disabled'}
          </span>
        </div>
        <p className="mt-2 text-sm text-slate-600">
          Events: <span className="font-mono text-xs">{e.events.join(', ')}</span>
        </p>
        {e.disabledReason && <p className="mt-2 text-sm text-red-700">{e.disabledReason}</p>}
        {e.enabled && e.failingSince && (
          <p className="mt-2 text-sm text-amber-800">
            Failing since {new Date(e.failingSince).toLocaleString()}: after three days of failures the
            endpoint is disabled.
          </p>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={busy || !e.enabled}
            onClick={() =>
              void act(async () => {
                setLogOpen(true);
                return (await webhooksApi.test(e.id)).message;
              })
            }
          >
            Send test event
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => setConfirm('rotate')}>
            Rotate secret
          </Button>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await webhooksApi.update(e.id, { enabled: !e.enabled });
                return e.enabled ? 'Endpoint disabled' : 'Endpoint enabled';
              })
            }
          >
            {e.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="danger-outline" disabled={busy} onClick={() => setConfirm('delete')}>
            Delete
          </Button>
          <Button
            variant="ghost"
            aria-expanded={logOpen}
            aria-controls={logId}
            onClick={() => setLogOpen((o) => !o)}
          >
            {logOpen ? 'Hide delivery log' : 'Delivery log'}
          </Button>
        </div>
        {logOpen && (
          <div id={logId} className="mt-4 border-t border-slate-100 pt-3">
            <h3 className="text-sm font-semibold text-slate-900">Delivery log</h3>
            <DeliveryLog endpointId={e.id} />
          </div>
        )}
      </Card>
      <Dialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === 'delete' ? 'Delete this endpoint?' : 'Rotate the signing secret?'}
      >
        <p className="break-all">
          {confirm === 'delete'
            ? `${e.url} stops receiving events, and its delivery log is deleted.`
            : 'A new secret signs every message from now on. The current one keeps signing beside it for 24 hours, so you can switch your receiver over.'}
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          {confirm === 'delete' ? (
            <Button
              variant="danger"
              disabled={busy}
              onClick={() => void act(async () => (await webhooksApi.remove(e.id)).message)}
            >
              Delete endpoint
            </Button>
          ) : (
            <Button
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  onSecret((await webhooksApi.rotate(e.id)).secret);
                })
              }
            >
              Rotate secret
            </Button>
          )}
        </div>
      </Dialog>
    </li>
  );
}

/** The secret, shown once (after creation or rotation): copy it now, it is never shown again. */
function SecretDialog({
  shown,
  onClose,
}: {
  shown: { url: string; secret: string } | null;
  onClose: () => void;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown?.secret ?? '');
      toast.success('Secret copied');
    } catch {
      toast.error('Copying failed: select the secret and copy it.');
    }
  };
  return (
    <Dialog open={shown !== null} onClose={onClose} title="Signing secret">
      <p className="break-all">
        Copy the secret for {shown?.url} now: it is shown only this once. Your receiver uses it to verify the
        webhook-signature header.
      </p>
      <label className="mt-3 block text-sm font-medium text-slate-800" htmlFor="webhook-secret">
        Secret
      </label>
      <input
        id="webhook-secret"
        readOnly
        value={shown?.secret ?? ''}
        onFocus={(ev) => ev.target.select()}
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs text-slate-900"
      />
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}
