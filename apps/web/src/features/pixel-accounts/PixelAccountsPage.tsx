import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { PixelAccount } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { SecretField } from '../../components/ui/SecretField.tsx';
import { EMPTY_ACCOUNT_DRAFT, PixelAccountFields } from '../../components/PixelAccountFields.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { workflowApi } from '../workflow/workflow-api.ts';
import { useCan } from '../../lib/workspace.tsx';

export function PixelAccountsPage() {
  // Adding, replacing, testing and removing pixel accounts are an admin's (decision 0103).
  const canManage = useCan('admin');
  usePageMeta({ title: 'Pixel accounts | Backsignal' });
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: workflowApi.accounts });
  const [draft, setDraft] = useState(EMPTY_ACCOUNT_DRAFT);
  // Spec §8: a toast as well as the line in the page.
  useEffect(() => {
    if (accounts.isError) toast.error('Failed to load pixel accounts.', { toastId: 'accounts-load' });
  }, [accounts.isError]);
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
          encrypted at rest and never shown again once saved.
        </p>
      </div>
      {canManage && (
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
      )}
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
  const canManage = useCan('admin');
  const [name, setName] = useState(account.name);
  const [pixelId, setPixelId] = useState(account.pixelId);
  /** A new token typed in: replaces the saved one on Save (the saved one is never sent back). */
  const [replacement, setReplacement] = useState('');
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [test, setTest] = useState<{ state: 'pending' | 'ok' | 'failed'; message: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['accounts'] });
  const dirty = name !== account.name || pixelId !== account.pixelId || replacement.trim() !== '';

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
            {canManage
              ? 'Reconnect needed: Meta refused this token. Paste a new one under Replace token and save.'
              : 'Reconnect needed: Meta refused this token. An owner or admin of the workspace must save a new one.'}
          </p>
        )}
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4">
          <TextField
            label="Label"
            value={name}
            onChange={(e) => setName(e.target.value)}
            readOnly={!canManage}
          />
          <TextField
            label="Pixel ID"
            value={pixelId}
            onChange={(e) => setPixelId(e.target.value)}
            readOnly={!canManage}
          />
          {/* Even masked, the token is an admin's to see: a member sends with the account, nothing more. */}
          {canManage && (
            <TextField label="Access token" value={account.accessToken} readOnly className="font-mono" />
          )}
          {canManage && (
            <SecretField
              label="Replace token"
              placeholder="Paste a new token"
              value={replacement}
              onChange={(e) => setReplacement(e.target.value)}
              hint="Saved when you press Save."
            />
          )}
        </div>
        {canManage && (
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
        )}
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
