import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import type { WorkspaceSummary } from '@backsignal/contracts';
import { Button } from '../components/ui/Button.tsx';
import { Card } from '../components/ui/Card.tsx';
import { Spinner } from '../components/ui/Spinner.tsx';
import { TextField } from '../components/ui/Field.tsx';
import { api } from '../lib/api.ts';
import { useFieldAction } from '../lib/use-form-action.ts';
import { usePageMeta } from '../lib/page-meta.ts';
import { activeWorkspaceSlug, useWorkspace } from '../lib/workspace.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';

/**
 * /w/<slug>/…: the address names the workspace. Opening it makes it the tab's (and the server's current, where
 * the app lands next time). A slug the user is not in is a page that does not exist, never a 403: a slug says
 * nothing about other customers' workspaces. The screens mount only once the header will name this workspace,
 * and mount afresh on a switch, so no state of one workspace shows in another.
 */
export function WorkspaceScope() {
  const { slug = '' } = useParams();
  const ws = useWorkspace();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (ws.status === 'ready') setMissing(!ws.activate(slug));
  }, [ws.status, ws.activate, slug]); // eslint-disable-line react-hooks/exhaustive-deps
  if (ws.status === 'failed') return <NotFoundPage />;
  if (missing) return <NotFoundPage workspace />;
  if (ws.active?.slug !== slug) return <Spinner />;
  return <Outlet key={slug} />;
}

/**
 * The app's screens without a prefix (older links, mails, the browser journeys): the same screen of the tab's
 * workspace, else the one the server opens, at its /w/<slug> address with the same query and state.
 */
export function ToWorkspace() {
  const ws = useWorkspace();
  const { pathname, search, hash, state } = useLocation();
  if (ws.status === 'failed') return <NotFoundPage />;
  if (ws.status !== 'ready') return <Spinner />;
  const known = (s: string | null) => (s && ws.workspaces.some((w) => w.slug === s) ? s : null);
  const slug = known(activeWorkspaceSlug()) ?? known(ws.current) ?? ws.workspaces[0]?.slug ?? null;
  if (!slug) return <CreateWorkspace />;
  return <Navigate to={`/w/${slug}${pathname}${search}${hash}`} replace state={state} />;
}

export async function createWorkspace(name: string): Promise<WorkspaceSummary> {
  const res = await api<{ workspace: WorkspaceSummary; message: string }>('/api/workspaces', {
    method: 'POST',
    body: { name },
  });
  return res.workspace;
}

/** The name field and the API's own field error under it, shared by the switcher's dialog and the empty state. */
export function NewWorkspaceForm({ onCreated, onCancel }: { onCreated?: () => void; onCancel?: () => void }) {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const { busy, error, run } = useFieldAction('name', 'Could not create the workspace.');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const created = await createWorkspace(name);
      await ws.reload();
      onCreated?.();
      navigate(`/w/${created.slug}/dashboard`);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField
        label="Workspace name"
        name="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error}
        required
        maxLength={80}
        autoFocus
      />
      <div className="flex justify-end gap-3">
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating...' : 'Create workspace'}
        </Button>
      </div>
    </form>
  );
}

/** A user with no workspace left (the last one deleted): nothing to open but a new one. */
export function CreateWorkspace() {
  usePageMeta({ title: 'Create a workspace | Backsignal' });
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Create a workspace</h1>
      <p className="mt-2 text-sm text-slate-600">
        A workspace holds your uploads, pixel accounts and sources. You are not in any workspace yet.
      </p>
      <Card className="mt-6">
        <NewWorkspaceForm />
      </Card>
    </section>
  );
}
