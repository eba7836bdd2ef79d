import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { accountApi } from './account-api.ts';
import { AuthCard } from './AuthCard.tsx';

/** Spec §4: verifying, then success (re-fetch the user, /dashboard) or error (/login). */
export function VerifyEmailPage() {
  usePageMeta({ title: 'Verifying your email | Backsignal' });
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = params.get('token');
    if (!token) {
      toast.error('Invalid or missing token.');
      navigate('/login', { replace: true });
      return;
    }
    accountApi
      .verify(token)
      .then(async ({ message }) => {
        toast.success(message || 'Email successfully validated!');
        await refresh();
        navigate('/dashboard', { replace: true });
      })
      .catch((err) => {
        toast.error(errorMessage(err, 'Unable to verify email. Invalid or expired token.'));
        navigate('/login', { replace: true });
      });
  }, [params, navigate, refresh]);

  return (
    <AuthCard title="Verifying Email">
      <Spinner label="Checking your verification link..." />
    </AuthCard>
  );
}
