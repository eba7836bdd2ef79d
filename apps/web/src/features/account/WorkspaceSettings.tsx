import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { useNavigate } from 'react-router';
import { ROLE_LABELS, SLUG_FORMAT, WORKSPACE_SLUG } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { useFieldAction } from '../../lib/use-form-action.ts';
import { setActiveWorkspaceSlug } from '../../lib/active-workspace.ts';
import { useCan, useWorkspace, useWorkspaceOptional } from '../../lib/workspace.tsx';

/**
 * Settings → Workspace: the active workspace's name, address and the user's role; renaming, changing the address
 * and deleting are an owner's.
 */
export function WorkspaceSettings() {
  const isOwner = useCan('owner');
  const active = useWorkspaceOptional()?.active;
  if (!active) return null;
  return (
    <div className="space-y-8">
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Workspace</h2>
        <p className="mt-1 text-sm text-slate-600">
          {active.name}: your role is <strong>{ROLE_LABELS[active.role]}</strong>.
        </p>
        {isOwner && <RenameForm key={active.slug} name={active.name} />}
      </Card>
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Address</h2>
        <p className="mt-1 break-all text-sm text-slate-600">
          Links to this workspace start with{' '}
          <strong className="font-mono text-slate-900">
            {window.location.origin}/w/{active.slug}/
          </strong>
        </p>
        {isOwner && <SlugForm key={active.slug} slug={active.slug} />}
      </Card>
      {isOwner && <DeleteWorkspace key={active.slug} name={active.name} />}
    </div>
  );
}

function RenameForm({ name: saved }: { name: string }) {
  const ws = useWorkspace();
  const [name, setName] = useState(saved);
  const { busy, error, run } = useFieldAction('name', 'Could not rename the workspace.');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { message } = await api<{ message: string }>('/api/workspace', {
        method: 'PATCH',
        body: { name },
      });
      await ws.reload();
      toast.success(message);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4">
      <TextField
        label="Workspace name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error}
        required
        maxLength={80}
      />
      <Button type="submit" disabled={busy || name.trim() === saved}>
        {busy ? 'Saving...' : 'Rename workspace'}
      </Button>
    </form>
  );
}

/**
 * The owner moves the workspace to a new address; the app follows at once, and the old address no longer opens
 * it (decision 0108), which the form says before the change.
 */
function SlugForm({ slug: saved }: { slug: string }) {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const [slug, setSlug] = useState(saved);
  const [checked, setChecked] = useState(false);
  const { busy, error, run } = useFieldAction('slug', 'Could not change the address.');
  const wanted = slug.trim().toLowerCase();
  const local = checked && !WORKSPACE_SLUG.test(wanted) ? SLUG_FORMAT : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!WORKSPACE_SLUG.test(wanted)) return;
    void run(async () => {
      const res = await api<{ slug: string; message: string }>('/api/workspace/slug', {
        method: 'PATCH',
        body: { slug: wanted },
      });
      // The tab names the new address before the list is read again, so no request names the old one.
      setActiveWorkspaceSlug(res.slug);
      await ws.reload();
      toast.success(res.message);
      // The settings remount under the new address: back on this tab.
      navigate(`/w/${res.slug}/settings?tab=workspace`, { replace: true });
    });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4">
      <TextField
        label="Workspace address"
        name="slug"
        value={slug}
        onChange={(e) => setSlug(e.target.value)}
        error={local ?? error}
        hint="Lower-case letters, digits and hyphens. Links with the old address stop working."
        required
        maxLength={60}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className="font-mono"
      />
      <Button type="submit" disabled={busy || wanted === saved}>
        {busy ? 'Saving...' : 'Change address'}
      </Button>
    </form>
  );
}

function DeleteWorkspace({ name }: { name: string }) {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState('');
  const { busy, error, run } = useFieldAction('confirm', 'Could not delete the workspace.');
  const remove = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { message } = await api<{ message: string }>('/api/workspace', {
        method: 'DELETE',
        body: { confirm },
      });
      // The deleted workspace must not be named again: the next one is the server's current, else none.
      setActiveWorkspaceSlug(null);
      const list = await ws.reload();
      setOpen(false);
      toast.success(message);
      const next = list?.workspaces.find((w) => w.slug === list.current) ?? list?.workspaces[0];
      navigate(next ? `/w/${next.slug}/dashboard` : '/dashboard', { replace: true });
    });
  };
  return (
    <Card className="border-red-200">
      <h2 className="text-base font-semibold text-slate-900">Delete workspace</h2>
      <p className="mt-1 text-sm text-slate-600">
        Permanently deletes this workspace with its uploads, templates, pixel accounts, sources and send
        history, for every member.
      </p>
      <Button variant="danger" className="mt-4" onClick={() => setOpen(true)}>
        Delete workspace
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Delete this workspace?">
        <form onSubmit={remove} noValidate className="space-y-4">
          <p>
            This cannot be undone. Type <strong className="text-slate-900">{name}</strong> to confirm.
          </p>
          <TextField
            label="Workspace name"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={error}
            autoComplete="off"
          />
          <div className="flex justify-end gap-3">
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={busy || confirm !== name}>
              {busy ? 'Deleting...' : 'Delete workspace'}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
