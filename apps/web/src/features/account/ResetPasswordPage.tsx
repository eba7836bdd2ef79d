import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { passwordProblem } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { useFormAction } from '../../lib/use-form-action.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { accountApi } from './account-api.ts';
import { AuthCard, FormError } from './AuthCard.tsx';
import { PasswordField } from './PasswordField.tsx';

/** Spec §5: the same blocking message as signup's. */
const WEAK_PASSWORD = 'Please resolve the password error before submitting.';

export function ResetPasswordPage() {
  usePageMeta({ title: 'Choose a new password | Backsignal' });
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, block, run } = useFormAction('Something went wrong');
  // Once sent, an empty field says what it lacks too.
  const [sent, setSent] = useState(false);
  const problem = password || sent ? passwordProblem(password) : null;
  const mismatch = (confirm || sent) && confirm !== password ? 'Passwords do not match.' : undefined;

  // One message per problem, beside its field (spec §5: the first failing rule; 'Passwords do not match.' at the
  // confirmation); above the form only the blocking message a weak password adds, and no toast repeating them.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(true);
    if (!token) return block('Invalid or missing token.');
    if (passwordProblem(password)) return block(WEAK_PASSWORD);
    if (password !== confirm) return block(null);
    await run(async () => {
      const { message } = await accountApi.resetPassword({ token, password });
      toast.success(message || 'Password has been reset.');
      navigate('/login', { replace: true });
    });
  };

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="After the reset you will be logged out everywhere; log in again with the new password."
      footer={
        // A used or expired link is a dead end without a way to ask for a new one.
        <>
          <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Get a new reset link
          </Link>
          {' · '}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline">
            Back to log in
          </Link>
        </>
      }
    >
      {!token ? (
        <FormError message="Invalid or missing token." />
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <FormError message={error} />
          <PasswordField
            label="New password"
            name="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (error === WEAK_PASSWORD) block(null);
            }}
            error={problem ?? undefined}
          />
          <PasswordField
            label="Confirm new password"
            name="confirm"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={mismatch}
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? 'Saving...' : 'Reset password'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
