import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { toast, ToastContainer } from 'react-toastify';
import { FLASH_KEY, SessionProvider } from '../lib/session.tsx';
import { WorkspaceProvider } from '../lib/workspace.tsx';
import { trackToasts } from '../lib/stale-toasts.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  useEffect(() => trackToasts(), []);
  // A message left by a page that reloaded the app (logout, account deletion).
  useEffect(() => {
    const flash = sessionStorage.getItem(FLASH_KEY);
    if (flash) {
      sessionStorage.removeItem(FLASH_KEY);
      toast.success(flash);
    }
  }, []);
  return (
    <QueryClientProvider client={client}>
      <SessionProvider>
        <WorkspaceProvider>{children}</WorkspaceProvider>
      </SessionProvider>
      {/* react-toastify's own Alt+T focuses the notifications (spec §9); each toast keeps its alert/status role. */}
      <ToastContainer position="top-right" autoClose={5000} newestOnTop closeOnClick pauseOnHover />
    </QueryClientProvider>
  );
}
