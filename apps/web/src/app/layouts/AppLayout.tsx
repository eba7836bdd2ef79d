import { useState } from 'react';
import { Outlet } from 'react-router';
import { NavLink } from '../../lib/ws-router.tsx';
import { StepSlot } from '../../components/StepIndicator.tsx';
import { api } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { HeaderNav } from './HeaderNav.tsx';
import { Logo } from './Logo.tsx';
import { WorkspaceSwitcher } from './WorkspaceSwitcher.tsx';
import { useHeaderHeight } from './useHeaderHeight.ts';
import { PublicLayout, SiteFooter } from './PublicLayout.tsx';

const nav = 'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900';

export function AppHeader({ stepSlot }: { stepSlot?: (el: HTMLElement | null) => void }) {
  const session = useSession();
  const header = useHeaderHeight<HTMLElement>();
  const logout = async () => {
    try {
      await api('/auth/logout', { method: 'POST' });
    } catch (err) {
      console.error('Logout failed', err);
    }
    session.signedOut();
  };
  return (
    <header
      ref={header}
      className="sticky top-0 z-30 border-b print:hidden border-slate-200 bg-white/90 backdrop-blur"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-2 px-4 py-3">
        {/* Logo and links share the room either side of the pill equally, so it sits at the header's centre. */}
        <div className="flex min-w-0 items-center gap-2 sm:gap-3 lg:flex-1">
          <Logo to="/dashboard" />
          {session.status === 'loggedIn' && session.user?.emailVerified && <WorkspaceSwitcher />}
        </div>
        {/* The workflow screens' step pill (StepIndicator), at top centre: between the logo and the links from
            1024 px, on a row of its own below them on narrower screens, where the links leave no room. */}
        <div
          ref={stepSlot}
          className="order-last flex w-full justify-center pt-2 empty:hidden lg:order-none lg:w-auto lg:px-4 lg:pt-0"
        />
        {/* Account links only for a known user: while the session loads (or for a visitor about to be sent to
            /login) an Account and a Logout would promise what is not there. */}
        {session.status === 'loggedIn' && (
          <HeaderNav label="Account">
            <NavLink to="/dashboard" className={nav}>
              Dashboard
            </NavLink>
            <NavLink to="/sources" className={nav}>
              Sources
            </NavLink>
            <NavLink to="/insights" className={nav}>
              Insights
            </NavLink>
            <NavLink to="/settings" className={nav}>
              Account
            </NavLink>
            <NavLink to="/contact" className={nav}>
              Contact Us
            </NavLink>
            <button type="button" onClick={logout} className={`${nav} text-left`}>
              Logout
            </button>
          </HeaderNav>
        )}
      </div>
    </header>
  );
}

export function AppLayout() {
  const [stepSlot, setStepSlot] = useState<HTMLElement | null>(null);
  return (
    <StepSlot.Provider value={stepSlot}>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded bg-white px-3 py-2 font-semibold text-brand-700 focus:not-sr-only focus:absolute focus:left-2 focus:top-2"
        >
          Skip to content
        </a>
        <AppHeader stepSlot={setStepSlot} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          <Outlet />
        </main>
        <SiteFooter />
      </div>
    </StepSlot.Provider>
  );
}

/** Public pages that switch to the app chrome for a logged-in user (/contact, /lead-ai). */
export function AdaptiveLayout() {
  const { status } = useSession();
  return status === 'loggedIn' ? <AppLayout /> : <PublicLayout />;
}
