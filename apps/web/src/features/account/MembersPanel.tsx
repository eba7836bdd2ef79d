import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  ROLE_LABELS,
  WORKSPACE_ROLES,
  type MemberList,
  type WorkspaceMember,
  type WorkspaceRole,
} from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useFormAction } from '../../lib/use-form-action.ts';
import { FormError } from './AuthCard.tsx';
import { membersApi } from './members-api.ts';

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : 'Never');

/**
 * Settings → Members: who is in the workspace with which role; admins and owners also invite, change roles and
 * remove, within what the API allows them (only an owner touches owners: decision 0105).
 */
export function MembersPanel() {
  const [list, setList] = useState<MemberList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setList(await membersApi.list());
      setLoadError(null);
    } catch (err) {
      setLoadError(errorMessage(err, 'Could not load the members.'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  if (loadError) return <FormError message={loadError} />;
  if (!list) return <p className="text-sm text-slate-500">Loading members…</p>;
  const me = list.members.find((m) => m.you);
  const myRole: WorkspaceRole = me?.role ?? 'viewer';
  const manager = myRole === 'admin' || myRole === 'owner';

  /** Runs one action, says its answer, and reloads the list. */
  const act = async (work: () => Promise<{ message: string }>) => {
    try {
      toast.success((await work()).message);
    } catch (err) {
      toast.error(errorMessage(err, 'That did not work. Please try again.'));
    }
    await load();
  };

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Members</h2>
        <ul className="mt-4 divide-y divide-slate-100">
          {list.members.map((m) => (
            <MemberRow key={m.userId} member={m} myRole={myRole} manager={manager} act={act} />
          ))}
        </ul>
      </Card>
      {manager && <InviteForm myRole={myRole} onInvited={load} />}
      {manager && list.invitations && (
        <Card>
          <h2 className="text-base font-semibold text-slate-900">Pending invitations</h2>
          {list.invitations.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No pending invitations.</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-100">
              {list.invitations.map((i) => {
                const touchable = myRole === 'owner' || i.role !== 'owner';
                return (
                  <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <div className="text-sm">
                      <p className="font-medium text-slate-900">{i.email}</p>
                      <p className="text-slate-500">
                        {ROLE_LABELS[i.role]}
                        {i.invitedBy ? ` · invited by ${i.invitedBy}` : ''} ·{' '}
                        {i.expired ? 'expired' : `expires ${when(i.expiresAt)}`}
                      </p>
                    </div>
                    {touchable && (
                      <div className="flex gap-2">
                        <Button variant="secondary" onClick={() => act(() => membersApi.resend(i.id))}>
                          Resend
                        </Button>
                        <Button variant="danger-outline" onClick={() => act(() => membersApi.revoke(i.id))}>
                          Revoke
                        </Button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      )}
    </div>
  );
}

function MemberRow({
  member: m,
  myRole,
  manager,
  act,
}: {
  member: WorkspaceMember;
  myRole: WorkspaceRole;
  manager: boolean;
  act: (work: () => Promise<{ message: string }>) => Promise<void>;
}) {
  const name = `${m.firstName} ${m.lastName}`.trim() || m.email || 'Member';
  // The screen offers what the API allows; the API refuses the rest whatever is shown.
  const canManage = manager && !m.you && (myRole === 'owner' || m.role !== 'owner');
  const roles = WORKSPACE_ROLES.filter((r) => myRole === 'owner' || r !== 'owner');
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="text-sm">
        <p className="font-medium text-slate-900">
          {name}
          {m.you && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
        </p>
        {m.email && <p className="text-slate-500">{m.email}</p>}
        {m.lastActiveAt !== undefined && (
          <p className="text-xs text-slate-500">Last active: {when(m.lastActiveAt)}</p>
        )}
      </div>
      <div className="flex items-center gap-2">
        {canManage ? (
          <select
            aria-label={`Role of ${name}`}
            className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
            value={m.role}
            onChange={(e) => act(() => membersApi.changeRole(m.userId, e.target.value as WorkspaceRole))}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        ) : (
          <span className="text-sm text-slate-700">{ROLE_LABELS[m.role]}</span>
        )}
        {canManage && (
          <Button variant="danger-outline" onClick={() => act(() => membersApi.remove(m.userId))}>
            Remove
          </Button>
        )}
        {m.you && (
          <Button variant="secondary" onClick={() => act(() => membersApi.leave())}>
            Leave
          </Button>
        )}
      </div>
    </li>
  );
}

function InviteForm({ myRole, onInvited }: { myRole: WorkspaceRole; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const { busy, error, run } = useFormAction('The invitation could not be sent.');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { message } = await membersApi.invite({ email, role });
      toast.success(message);
      setEmail('');
      await onInvited();
    });
  };
  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">Invite someone</h2>
      <p className="mt-1 text-sm text-slate-600">
        They get an email with a link that works once, for 7 days, for an account with that address.
      </p>
      <form onSubmit={submit} className="mt-4 space-y-4">
        <FormError message={error} />
        <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
          <TextField
            label="Email"
            name="invite-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <SelectField
            label="Role"
            name="invite-role"
            value={role}
            onChange={(e) => setRole(e.target.value as WorkspaceRole)}
          >
            {WORKSPACE_ROLES.filter((r) => myRole === 'owner' || r !== 'owner').map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? 'Sending...' : 'Send invitation'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
