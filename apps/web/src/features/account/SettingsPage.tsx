import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'react-toastify';
import { ROLES } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { ApiError } from '../../lib/api.ts';
import { useFormAction } from '../../lib/use-form-action.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { accountApi } from './account-api.ts';
import { FormError } from './AuthCard.tsx';
import { MembersPanel } from './MembersPanel.tsx';
import { PasswordField } from './PasswordField.tsx';
import { WorkspaceSettings } from './WorkspaceSettings.tsx';
import { ActivityLink } from '../activity/ActivityPage.tsx';
import { ApiKeysPanel } from '../api-keys/ApiKeysPanel.tsx';
import { useCan } from '../../lib/workspace.tsx';

const ALL_TABS = ['My Profile', 'Change Password', 'Workspace', 'Members', 'API keys'] as const;
type Tab = (typeof ALL_TABS)[number];

export function SettingsPage() {
  usePageMeta({ title: 'Account Settings | Backsignal' });
  // API keys are the workspace's owners' and admins' (decision 0113): the tab is theirs only.
  const admin = useCan('admin');
  const TABS = ALL_TABS.filter((t) => admin || t !== 'API keys');
  const [tab, setTab] = useState<Tab>('My Profile');
  // The members list loads when its tab is first opened, then stays mounted like the others.
  const [seen, setSeen] = useState<ReadonlySet<Tab>>(new Set(['My Profile']));
  const open = (t: Tab) => {
    setTab(t);
    setSeen((s) => (s.has(t) ? s : new Set([...s, t])));
  };
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  // WAI-ARIA tabs: arrow keys move between tabs.
  const onKey = (e: KeyboardEvent, i: number) => {
    const dir = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!dir) return;
    const next = (i + dir + TABS.length) % TABS.length;
    open(TABS[next]!);
    refs.current[next]?.focus();
  };

  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Account Settings</h1>
      <ActivityLink />
      <div
        role="tablist"
        aria-label="Account settings"
        className="mt-6 flex flex-wrap gap-x-1 border-b border-slate-200"
      >
        {TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => {
              refs.current[i] = el;
            }}
            role="tab"
            id={`tab-${i}`}
            aria-selected={tab === t}
            aria-controls={`panel-${i}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => open(t)}
            onKeyDown={(e) => onKey(e, i)}
            className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-semibold sm:px-4 ${tab === t ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t}
          </button>
        ))}
      </div>
      {/* Both panels stay mounted, the inactive one hidden: unmounting it threw away what the user had typed. */}
      {TABS.map((t, i) => (
        <div
          key={t}
          role="tabpanel"
          id={`panel-${i}`}
          aria-labelledby={`tab-${i}`}
          hidden={tab !== t}
          className="mt-6"
        >
          {t === 'My Profile' ? (
            <ProfileForm />
          ) : t === 'Change Password' ? (
            <ChangePasswordForm />
          ) : t === 'Workspace' ? (
            <WorkspaceSettings />
          ) : t === 'Members' ? (
            seen.has(t) && <MembersPanel />
          ) : (
            seen.has(t) && <ApiKeysPanel />
          )}
        </div>
      ))}
      <DangerZone />
    </section>
  );
}

function ProfileForm() {
  const { user, signedIn } = useSession();
  const [form, setForm] = useState({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    company: user?.company ?? '',
    role: user?.role ?? '',
  });
  const { busy, error, fail, run } = useFormAction('Update failed.');
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.firstName.trim()) return fail('First name is required.');
    void run(async () => {
      const res = await accountApi.updateProfile(form);
      signedIn(res.user);
      toast.success(res.message || 'Profile updated successfully.');
    });
  };

  return (
    <Card>
      <form onSubmit={submit} className="space-y-4">
        <FormError message={error} />
        <TextField
          label="Email"
          value={user?.email ?? ''}
          readOnly
          disabled
          hint="Your email address cannot be changed here."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First name"
            name="firstName"
            required
            value={form.firstName}
            onChange={set('firstName')}
            autoComplete="given-name"
          />
          <TextField
            label="Last name"
            name="lastName"
            required
            value={form.lastName}
            onChange={set('lastName')}
            autoComplete="family-name"
          />
        </div>
        <TextField
          label="Company"
          name="company"
          value={form.company}
          onChange={set('company')}
          autoComplete="organization"
        />
        <SelectField label="Role" name="role" value={form.role} onChange={set('role')}>
          <option value="">Select your role</option>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </SelectField>
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save changes'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ChangePasswordForm() {
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const { busy, error, run } = useFormAction('Password update failed.');
  const [sent, setSent] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  // Said once, at the confirmation (spec §5), not again above the form and in a toast.
  const mismatch =
    (form.confirm || sent) && form.newPassword !== form.confirm ? 'Passwords do not match.' : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSent(true);
    if (form.newPassword !== form.confirm) return;
    void run(async () => {
      const { message } = await accountApi.changePassword({
        currentPassword: form.currentPassword,
        newPassword: form.newPassword,
      });
      toast.success(message || 'Password updated successfully.');
      setForm({ currentPassword: '', newPassword: '', confirm: '' });
      setSent(false);
    });
  };

  return (
    <Card>
      <form onSubmit={submit} className="space-y-4">
        <FormError message={error} />
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          required
          value={form.currentPassword}
          onChange={set('currentPassword')}
        />
        <PasswordField
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          required
          value={form.newPassword}
          onChange={set('newPassword')}
        />
        <PasswordField
          label="Confirm new password"
          name="confirm"
          autoComplete="new-password"
          required
          value={form.confirm}
          onChange={set('confirm')}
          error={mismatch}
        />
        <p className="text-xs text-slate-500">Changing your password logs you out on every other device.</p>
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? 'Updating...' : 'Update password'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function DangerZone() {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const { signedOut } = useSession();

  const remove = async () => {
    setBusy(true);
    try {
      const { message } = await accountApi.deleteAccount();
      setOpen(false);
      signedOut(message || 'Your account has been deleted.');
    } catch (err) {
      // A workspace only this account owns still has other members: say which, and what to do first.
      toast.error(
        err instanceof ApiError && err.code === 'CONFLICT' ? err.message : 'Failed to delete account.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mt-8 border-red-200">
      <h2 className="text-base font-semibold text-slate-900">Delete account</h2>
      <p className="mt-1 text-sm text-slate-600">
        Permanently deletes your account and the workspaces only you own, with their uploads, templates, pixel
        accounts, sources and send history.
      </p>
      <Button variant="danger" className="mt-4" onClick={() => setOpen(true)}>
        Delete my account
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Delete your account?">
        <p>This cannot be undone. Everything you stored in Backsignal is deleted at once.</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove} disabled={busy}>
            {busy ? 'Deleting...' : 'Yes, delete my account'}
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
