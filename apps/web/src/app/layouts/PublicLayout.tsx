import { Link, NavLink, Outlet } from 'react-router';
import { usePublicConfig } from '../../lib/public-config.ts';
import { useSession } from '../../lib/session.tsx';
import { HeaderNav } from './HeaderNav.tsx';
import { Logo } from './Logo.tsx';
import { useHeaderHeight } from './useHeaderHeight.ts';

const nav = 'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900';

export function PublicHeader() {
  const { bookACallUrl } = usePublicConfig();
  const header = useHeaderHeight<HTMLElement>();
  const { status } = useSession();
  return (
    <header ref={header} className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <Logo />
        <HeaderNav label="Main">
          <NavLink to="/about-us" className={nav}>
            About Us
          </NavLink>
          <NavLink to="/services" className={nav}>
            Services
          </NavLink>
          <NavLink to="/contact" className={nav}>
            Contact Us
          </NavLink>
          {/* A returning user must not have to go through the signup page (see docs/decisions/0060). */}
          {status === 'loggedIn' ? (
            <NavLink to="/dashboard" className={nav}>
              Dashboard
            </NavLink>
          ) : (
            <NavLink to="/login" className={nav}>
              Log in
            </NavLink>
          )}
          <a
            href={bookACallUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-lg bg-brand-600 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-brand-700 sm:ml-1"
          >
            Book a Call
          </a>
        </HeaderNav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-8 text-sm text-slate-600">
        <p>© {new Date().getFullYear()} Backsignal</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <Link to="/terms-of-service" className="hover:text-slate-900">
            Terms of Service
          </Link>
          <Link to="/privacy-policy" className="hover:text-slate-900">
            Privacy Policy
          </Link>
          <Link to="/contact" className="hover:text-slate-900">
            Contact
          </Link>
        </nav>
      </div>
    </footer>
  );
}

export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 font-semibold text-brand-700 focus:not-sr-only focus:absolute focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
