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
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-2 px-4 py-3">
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

/** Every public page a visitor may look for, in three groups: the header keeps to the spec's four links. */
const FOOTER_LINKS: { title: string; links: [string, string][] }[] = [
  {
    title: 'Product',
    links: [
      ['/csv-to-meta', 'How it works'],
      ['/pricing', 'Pricing'],
      ['/audit', 'Free tracking audit'],
    ],
  },
  {
    title: 'Who it is for',
    links: [
      ['/agency', 'Agencies'],
      ['/local-services', 'Local services'],
      ['/retail', 'Retail'],
      ['/crm-integrations', 'CRM integrations'],
    ],
  },
  {
    title: 'Company',
    links: [
      ['/about-us', 'About us'],
      ['/services', 'Attribution services'],
      ['/contact', 'Contact'],
      ['/terms-of-service', 'Terms of Service'],
      ['/privacy-policy', 'Privacy Policy'],
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white print:hidden">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 text-sm text-slate-600 lg:grid-cols-4">
        <div className="col-span-2 lg:col-span-1">
          <p className="font-semibold text-slate-900">Backsignal</p>
          <p className="mt-2">Offline conversions to Meta, done right. Free during the open beta.</p>
          <p className="mt-4">© {new Date().getFullYear()} Backsignal</p>
        </div>
        {FOOTER_LINKS.map((group) => (
          <nav key={group.title} aria-label={`Footer: ${group.title}`}>
            <p className="font-semibold text-slate-900">{group.title}</p>
            <ul className="mt-2 space-y-1">
              {group.links.map(([to, label]) => (
                <li key={to}>
                  {/* 24 px tall at least, so the links are easy to tap (WCAG 2.5.8). */}
                  <Link to={to} className="inline-block py-0.5 hover:text-slate-900 hover:underline">
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
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
