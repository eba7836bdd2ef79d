import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { passwordProblem, ROLES, SignupRequest } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { useFormAction } from '../../lib/use-form-action.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { accountApi } from './account-api.ts';
import { AuthCard, FormError } from './AuthCard.tsx';
import { PasswordField } from './PasswordField.tsx';

/** Spec §5: what a signup with a weak password is blocked with. */
const WEAK_PASSWORD = 'Please resolve the password error before submitting.';

export function SignupPage() {
  usePageMeta({
    title: 'Create your account | Backsignal',
    description: 'Create a free Backsignal account.',
  });
  // The address the inbox notice names once the signup was accepted.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [form, setForm] = useState({
    email: '',
    firstName: '',
    lastName: '',
    password: '',
    company: '',
    role: '',
  });
  const { busy, error, block, run } = useFormAction('Signup failed', true);
  // What the API's own contract says of each field, shown beside it once the form was sent: an empty form used
  // to get only the password message, with nothing marked.
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof typeof form, string>>>({});
  const pwProblem = form.password ? passwordProblem(form.password) : (fieldErrors.password ?? null);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setFieldErrors(({ [k]: _edited, ...rest }) => rest);
    // The password's own message, beside it, follows each keystroke; the blocking summary goes with the edit.
    if (k === 'password' && error === WEAK_PASSWORD) block(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = SignupRequest.safeParse(form);
    if (!parsed.success) {
      const found: typeof fieldErrors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof typeof form] ??= issue.message;
      setFieldErrors(found);
      // One message per problem: each field's beside it (the password's first failing rule only, spec §5), and
      // for a weak password the spec's blocking message once, above the form; no toast repeating either.
      return block(found.password ? WEAK_PASSWORD : null);
    }
    await run(async () => {
      // The same answer whether the address is new or already has an account (the owner is told by mail), so
      // nobody learns from this form who has an account. A new account verifies by the link, then logs in.
      await accountApi.signup(form);
      track('sign_up');
      setSentTo(parsed.data.email);
    });
  };

  if (sentTo) {
    return (
      <AuthCard
        title="Check your inbox"
        footer={
          <>
            Verified already?{' '}
            <Link to="/login" className="font-semibold text-brand-700 hover:underline">
              Log in
            </Link>
          </>
        }
      >
        <div role="status" className="space-y-3 text-sm text-slate-700">
          <p className="font-medium text-slate-900">Check your inbox to continue.</p>
          <p>
            We sent an email to <span className="font-medium break-all text-slate-900">{sentTo}</span>. Open
            the link in it to continue. It can take a minute to arrive; check your spam folder too.
          </p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle="Free during open beta. Send your first offline conversions to Meta in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline">
            Log in
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <FormError message={error} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            required
            value={form.firstName}
            onChange={set('firstName')}
            error={fieldErrors.firstName}
          />
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            value={form.lastName}
            onChange={set('lastName')}
          />
        </div>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set('email')}
          error={fieldErrors.email}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={set('password')}
          error={pwProblem ?? undefined}
          hint="At least 8 characters with a number, an uppercase letter and a special character."
        />
        <TextField
          label="Company (optional)"
          name="company"
          autoComplete="organization"
          value={form.company}
          onChange={set('company')}
        />
        <SelectField label="Role (optional)" name="role" value={form.role} onChange={set('role')}>
          <option value="">Select your role</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </SelectField>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Creating account...' : 'Sign up'}
        </Button>
      </form>
    </AuthCard>
  );
}
