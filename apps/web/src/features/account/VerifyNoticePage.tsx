import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '../../components/ui/Button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { accountApi } from './account-api.ts';
import { AuthCard } from './AuthCard.tsx';

export function VerifyNoticePage() {
  usePageMeta({ title: 'Verify your email | Backsignal' });
  const { user, refresh } = useSession();
  const [busy, setBusy] = useState(false);
  // A verified user is sent on by the route guard; one who is not yet needs to be told so, not shown nothing.
  const [notYet, setNotYet] = useState(false);
  const check = async () => {
    const now = await refresh();
    setNotYet(!now?.emailVerified);
  };

  const resend = async () => {
    setBusy(true);
    try {
      toast.success((await accountApi.resendVerification()).message);
    } catch (err) {
      toast.error(errorMessage(err, 'Something went wrong'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Verify your email"
      subtitle={
        <>
          We sent a verification link to <strong className="text-slate-900">{user?.email}</strong>.
        </>
      }
    >
      <div className="space-y-4 text-sm text-slate-600">
        <p>Open the link in that email to activate your account. It works once and expires in 24 hours.</p>
        <p>Can't find it? Check your spam folder, or send a new link.</p>
        <div className="flex flex-wrap gap-3">
          <Button onClick={resend} disabled={busy}>
            {busy ? 'Sending...' : 'Resend verification email'}
          </Button>
          <Button variant="secondary" onClick={() => void check()}>
            I've verified my email
          </Button>
        </div>
        {notYet && (
          <p role="status" className="text-amber-700">
            Your email is not verified yet. Open the link in the email we sent, then try again.
          </p>
        )}
      </div>
    </AuthCard>
  );
}
