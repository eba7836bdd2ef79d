import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  API_DOCS_PATH,
  API_KEY_SCOPES,
  SCOPE_LABELS,
  type ApiKeyCreated,
  type ApiKeyScope,
  type ApiKeySummary,
} from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useFormAction } from '../../lib/use-form-action.ts';
import { Link } from '../../lib/ws-router.tsx';
import { apiKeysApi } from './api-keys-api.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never used');

/**
 * Settings → API keys (owners and admins): the workspace's keys with what tells them apart (prefix, scope, last
 * use and address), a new key shown once, and revoke, which takes effect on the key's next call.
 */
export function ApiKeysPanel() {
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const load = useCallback(async () => {
    try {
      setKeys((await apiKeysApi.list()).keys);
      setLoadError(null);
    } catch (err) {
      setLoadError(errorMessage(err, 'Could not load the API keys.'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (k: ApiKeySummary) => {
    try {
      toast.success((await apiKeysApi.revoke(k.id)).message);
    } catch (err) {
      toast.error(errorMessage(err, 'The key could not be revoked. Please try again.'));
    }
    setRevoking(null);
    await load();
  };

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-base font-semibold text-slate-900">API keys</h2>
        <p className="mt-1 text-sm text-slate-600">
          Programs (a nightly export, a pipeline step, the <code>backsignal</code> command) send with a key
          instead of a password. A key works in this workspace only.{' '}
          <Link to={API_DOCS_PATH} className="font-semibold text-brand-700 hover:underline">
            API reference
          </Link>
        </p>
        {loadError ? (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {loadError}
          </p>
        ) : !keys ? (
          <p className="mt-4 text-sm text-slate-500">Loading API keys…</p>
        ) : keys.length === 0 ? (
          <p className="mt-4 text-sm text-slate-500">No API keys yet.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100">
            {keys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">
                    {k.name}{' '}
                    <code className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {k.prefix}…
                    </code>
                  </p>
                  <p className="text-slate-600">
                    {SCOPE_LABELS[k.scope]} · created by {k.createdBy}
                  </p>
                  <p className="text-xs text-slate-500">
                    Last used: {when(k.lastUsedAt)}
                    {k.lastUsedIp ? ` from ${k.lastUsedIp}` : ''}
                  </p>
                  {!k.active && (
                    <p className="text-xs font-medium text-amber-800">
                      Not working: its creator is no longer an owner or admin here.
                    </p>
                  )}
                </div>
                <Button variant="danger-outline" onClick={() => setRevoking(k)}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <CreateKeyForm
        onCreated={async (c) => {
          setCreated(c);
          await load();
        }}
      />
      <Dialog open={!!created} onClose={() => setCreated(null)} title="Your new API key">
        {created && <ShownOnce created={created} onDone={() => setCreated(null)} />}
      </Dialog>
      <Dialog open={!!revoking} onClose={() => setRevoking(null)} title="Revoke this API key?">
        {revoking && (
          <>
            <p>
              Programs using “{revoking.name}” ({revoking.prefix}…) are refused from their next call. This
              cannot be undone.
            </p>
            <div className="mt-5 flex justify-end gap-3">
              <Button variant="secondary" onClick={() => setRevoking(null)}>
                Cancel
              </Button>
              <Button variant="danger" onClick={() => void revoke(revoking)}>
                Revoke key
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </div>
  );
}

function ShownOnce({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      toast.error('Could not copy. Select the key and copy it by hand.');
    }
  };
  return (
    <>
      <p>{created.message}</p>
      <label className="mt-3 block text-xs font-semibold text-slate-700" htmlFor="new-api-key">
        {created.key.name}
      </label>
      <input
        id="new-api-key"
        readOnly
        value={created.secret}
        onFocus={(e) => e.currentTarget.select()}
        className="mt-1 w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900"
      />
      <div className="mt-5 flex justify-end gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy key'}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (c: ApiKeyCreated) => Promise<void> }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('send');
  const { busy, error, run } = useFormAction('The key could not be created.');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const c = await apiKeysApi.create({ name, scope });
      setName('');
      await onCreated(c);
    });
  };
  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">Create a key</h2>
      <form onSubmit={submit} className="mt-4 space-y-4">
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
          <TextField
            label="Name"
            name="api-key-name"
            required
            maxLength={80}
            placeholder="Nightly CRM export"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <SelectField
            label="Scope"
            name="api-key-scope"
            value={scope}
            onChange={(e) => setScope(e.target.value as ApiKeyScope)}
          >
            {API_KEY_SCOPES.map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating...' : 'Create key'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
