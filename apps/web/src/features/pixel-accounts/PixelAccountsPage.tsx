import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { PixelAccount } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { EMPTY_ACCOUNT_DRAFT, PixelAccountFields } from '../../components/PixelAccountFields.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { workflowApi } from '../workflow/workflow-api.ts';

export function PixelAccountsPage() {
  usePageMeta({ title: 'Pixel accounts | Backsignal' });
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: workflowApi.accounts });
  const [draft, setDraft] = useState(EMPTY_ACCOUNT_DRAFT);
  const create = useMutation({
    mutationFn: () => workflowApi.createAccount(draft),
    onSuccess: () => {
      toast.success('Account saved');
      setDraft(EMPTY_ACCOUNT_DRAFT);
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
    },
    onError: (err) => toast.error(errorMessage(err, 'Failed to create pixel account.')),
  });

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Pixel accounts</h1>
        <p className="mt-1 text-sm text-slate-600">
          A pixel (dataset) ID and a Conversions API access token from Events Manager → Settings. Tokens are
          encrypted at rest and never shown unless you ask.
        </p>
      </div>
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Add a pixel account</h2>
        <form
          className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!draft.pixelId.trim() || !draft.accessToken.trim())
              return void toast.error('Pixel ID and Access Token are required.');
            create.mutate();
          }}
        >
          <PixelAccountFields draft={draft} setDraft={setDraft} labelPlaceholder="Main store" />
          <div className="md:col-span-3">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Saving...' : 'Save account'}
            </Button>
          </div>
        </form>
      </Card>
      {accounts.isPending ? (
        <Spinner />
      ) : accounts.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load pixel accounts.
        </p>
      ) : accounts.data.length === 0 ? (
        <p className="text-sm text-slate-500">No pixel accounts yet.</p>
      ) : (
        <ul className="space-y-4">
          {accounts.data.map((a) => (
            <AccountCard key={a.id} account={a} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountCard({ account }: { account: PixelAccount }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(account.name);
  const [pixelId, setPixelId] = useState(account.pixelId);
  /** The revealed token (read-only), or null while masked. */
  const [token, setToken] = useState<string | null>(null);
  /** A new token typed in: replaces the saved one on Save without ever showing the old one. */
  const [replacement, setReplacement] = useState('');
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [test, setTest] = useState<{ state: 'pending' | 'ok' | 'failed'; message: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['accounts'] });
  const dirty = name !== account.name || pixelId !== account.pixelId || replacement.trim() !== '';

  const toggleToken = async () => {
    if (token !== null) return setToken(null);
    try {
      setToken((await workflowApi.revealToken(account.id)).accessToken);
    } catch (err) {
      // Its own message: this is not the list failing to load.
      console.error('Token reveal failed', err);
      toast.error('Could not show the access token. Please try again.');
    }
  };
  const save = async () => {
    setSaving(true);
    try {
      await workflowApi.updateAccount(account.id, {
        name,
        pixelId,
        ...(replacement.trim() ? { accessToken: replacement.trim() } : {}),
      });
      toast.success('Account saved');
      setReplacement('');
      setToken(null);
      setTest(null);
      await refresh();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to save changes'));
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    try {
      await workflowApi.deleteAccount(account.id);
      setConfirm(false);
      await refresh();
    } catch {
      toast.error('Failed to delete account.');
    }
  };
  const runTest = async () => {
    setTest({ state: 'pending', message: 'Testing...' });
    try {
      const r = await workflowApi.testAccount(account.id);
      setTest({ state: r.ok ? 'ok' : 'failed', message: r.message });
      await refresh();
    } catch (err) {
      setTest({ state: 'failed', message: errorMessage(err, 'Could not test the connection.') });
    }
  };
  const testColour = { pending: 'text-slate-600', ok: 'text-emerald-700', failed: 'text-red-700' };

  return (
    <li>
      <Card className="space-y-4">
        {account.status === 'reconnect_needed' && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
            Reconnect needed: Meta refused this token. Paste a new one under Replace token and save.
          </p>
        )}
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4">
          <TextField label="Label" value={name} onChange={(e) => setName(e.target.value)} />
          <TextField label="Pixel ID" value={pixelId} onChange={(e) => setPixelId(e.target.value)} />
          <div className="relative">
            <TextField
              label="Access token"
              value={token ?? account.accessToken}
              readOnly
              className="pr-16 font-mono"
            />
            <button
              type="button"
              onClick={toggleToken}
              aria-label={token === null ? 'Show access token' : 'Hide access token'}
              className="absolute right-2 top-7 rounded px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
            >
              {token === null ? 'Show' : 'Hide'}
            </button>
          </div>
          <TextField
            label="Replace token"
            type="password"
            autoComplete="off"
            placeholder="Paste a new token"
            value={replacement}
            onChange={(e) => setReplacement(e.target.value)}
            hint="Saved when you press Save."
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={save} disabled={saving || !dirty}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
          <Button
            variant="secondary"
            onClick={runTest}
            disabled={dirty || test?.state === 'pending'}
            title={dirty ? 'Save your changes before testing.' : undefined}
          >
            Test connection
          </Button>
          <Button variant="danger-outline" onClick={() => setConfirm(true)}>
            Delete
          </Button>
          {dirty && (
            <p className="text-sm text-slate-500">Save your changes before testing the connection.</p>
          )}
          {test && !dirty && (
            <p role="status" className={`text-sm ${testColour[test.state]}`}>
              {test.message}
            </p>
          )}
        </div>
      </Card>
      <Dialog open={confirm} onClose={() => setConfirm(false)} title="Delete this pixel account?">
        <p>The saved token is deleted. Send history stays.</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirm(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove}>
            Delete account
          </Button>
        </div>
      </Dialog>
    </li>
  );
}
