import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { useFormAction } from '../../lib/use-form-action.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { track } from '../../lib/track.ts';
import { accountApi } from './account-api.ts';
import { AuthCard, FormError } from './AuthCard.tsx';
import { PasswordField } from './PasswordField.tsx';

export function LoginPage() {
  usePageMeta({ title: 'Log in | Backsignal', description: 'Log in to Backsignal.' });
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useFormAction('Login failed');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { user, message } = await accountApi.login({ email, password });
      toast.success(message || 'You are now logged in!');
      track('login');
      session.signedIn(user);
      const from = (location.state as { from?: string } | null)?.from;
      navigate(user.emailVerified ? (from ?? '/dashboard') : '/verify-notice', { replace: true });
    });
  };

  return (
    <AuthCard
      title="Log in"
      subtitle="Welcome back. Pick up where your last upload left off."
      footer={
        <>
          New to Backsignal?{' '}
          <Link to="/signup" className="font-semibold text-brand-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4">
        <FormError message={error} />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Logging in...' : 'Log in'}
        </Button>
      </form>
    </AuthCard>
  );
}
