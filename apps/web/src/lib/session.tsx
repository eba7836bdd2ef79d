import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { MeResponse, User } from '@backsignal/contracts';
import { api } from './api.ts';

type Status = 'loading' | 'loggedIn' | 'loggedOut';

interface SessionValue {
  status: Status;
  user: User | null;
  /** Re-reads the current user from the server. */
  refresh(): Promise<User | null>;
  /** After a login or profile update: store the user and tell other tabs. */
  signedIn(user: User): void;
  /**
   * After logout or account deletion: tell other tabs, and start over on the home page with no state left.
   * `flash` is shown as a toast after the reload.
   */
  signedOut(flash?: string): void;
}

const SessionContext = createContext<SessionValue | null>(null);

// Spec §4: markers in local storage let other tabs follow a logout or login.
const LOGOUT_KEY = 'backsignal:logout';
const LOGIN_KEY = 'backsignal:login';
export const FLASH_KEY = 'backsignal:flash';

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [status, setStatus] = useState<Status>('loading');

  const refresh = useCallback(async () => {
    try {
      const me = await api<MeResponse>('/auth/me');
      setUser(me.user);
      setStatus(me.user ? 'loggedIn' : 'loggedOut');
      return me.user;
    } catch (err) {
      console.error('Session fetch failed', err);
      setUser(null);
      setStatus('loggedOut');
      return null;
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === LOGOUT_KEY) {
        setUser(null);
        setStatus('loggedOut');
        window.location.assign('/');
      } else if (e.key === LOGIN_KEY) {
        void refresh();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [refresh]);

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user,
      refresh,
      signedIn(u) {
        setUser(u);
        setStatus('loggedIn');
        localStorage.setItem(LOGIN_KEY, String(Date.now()));
      },
      signedOut(flash) {
        localStorage.setItem(LOGOUT_KEY, String(Date.now()));
        if (flash) sessionStorage.setItem(FLASH_KEY, flash);
        // A full load clears every cache and avoids guarded screens reacting to the user vanishing.
        window.location.assign('/');
      },
    }),
    [status, user, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
