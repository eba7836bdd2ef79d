import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { ApiError } from '../../lib/api.ts';
import { useFormAction } from '../../lib/use-form-action.ts';
import { Captcha } from '../../marketing/forms/Captcha.tsx';
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
  const { busy, error, fail, run } = useFormAction('Login failed');
  // Asked for by the API once an account has had too many failed logins from many addresses (ADR 0010).
  const [captchaNeeded, setCaptchaNeeded] = useState(false);
  const [captchaToken, setCaptchaToken] = useState('');
  const [captchaReset, setCaptchaReset] = useState(0);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (captchaNeeded && !captchaToken) return fail('Please complete the captcha.');
    void run(async () => {
      let answer;
      try {
        answer = await accountApi.login({
          email,
          password,
          ...(captchaNeeded && captchaToken ? { captchaToken } : {}),
        });
      } catch (err) {
        if (err instanceof ApiError && (err.code === 'CAPTCHA_REQUIRED' || err.code === 'CAPTCHA_FAILED')) {
          setCaptchaNeeded(true);
        }
        // A token is good for one attempt, failed or not: the next one needs a fresh one.
        if (captchaNeeded) setCaptchaReset((n) => n + 1);
        throw err;
      }
      const { user, message } = answer;
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
        {captchaNeeded && <Captcha onToken={setCaptchaToken} resetKey={captchaReset} />}
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
