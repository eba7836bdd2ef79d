import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { useFormAction } from '../../lib/use-form-action.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { accountApi } from './account-api.ts';
import { AuthCard, FormError } from './AuthCard.tsx';

export function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot your password? | Backsignal' });
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useFormAction('Something went wrong', true);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { message } = await accountApi.forgotPassword(email);
      toast.success(message || 'A reset link has been sent to your email.');
      setSent(true);
    });
  };

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the email you signed up with and we'll send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Back to log in
        </Link>
      }
    >
      {sent ? (
        <p role="status" className="rounded-lg bg-emerald-50 px-3 py-3 text-sm text-emerald-800">
          If an account exists for <strong>{email}</strong>, a reset link is on its way. It expires in 1 hour.
        </p>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <FormError message={error} />
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
