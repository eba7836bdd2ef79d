import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { Spinner } from '../components/ui/Spinner.tsx';

/** Spec §2 route table: 'Loading...' while the session loads, then redirect or render. */
export function RequireVerified({ children }: { children: ReactNode }) {
  const { status, user } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Spinner />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (!user.emailVerified) return <Navigate to="/verify-notice" replace />;
  return <>{children}</>;
}

/** /verify-notice: logged in but not yet verified. */
export function RequireUnverified({ children }: { children: ReactNode }) {
  const { status, user } = useSession();
  if (status === 'loading') return <Spinner />;
  if (!user) return <Navigate to="/login" replace />;
  if (user.emailVerified) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

/** Guest-only pages: nothing is rendered while auth loads; a logged-in user goes to /dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return null;
  if (status === 'loggedIn') return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
