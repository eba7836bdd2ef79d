import { useEffect, useId, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * A header's links: in a row from 640 px, behind a Menu button on phones so the header stays one line. The
 * menu closes on navigation and on Escape. Open, it is a row of the header (which wraps), not a layer over the
 * page: the header's height then includes it, and toasts, placed below the header (useHeaderHeight), never
 * cover its links.
 */
export function HeaderNav({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const id = useId();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <>
      <nav
        aria-label={label}
        className="hidden items-center justify-end gap-1 whitespace-nowrap sm:flex lg:flex-1"
      >
        {children}
      </nav>
      <button
        type="button"
        className="inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 sm:hidden"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <svg
          aria-hidden
          viewBox="0 0 20 20"
          className="h-4 w-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 6h14M3 10h14M3 14h14" />}
        </svg>
        Menu
      </button>
      {open && (
        <nav
          id={id}
          aria-label={label}
          className="order-last -mx-4 -mb-3 mt-3 flex w-[calc(100%+2rem)] flex-col gap-1 border-t border-slate-200 bg-white px-4 py-3 sm:hidden"
        >
          {children}
        </nav>
      )}
    </>
  );
}
