import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { ROLE_LABELS } from '@backsignal/contracts/public';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useWorkspace } from '../../lib/workspace.tsx';
import { NewWorkspaceForm } from '../WorkspaceRoutes.tsx';

/**
 * The header's workspace menu (WAI-ARIA menu button): the active workspace's name and the user's role in it;
 * open, the user's workspaces and "New workspace". Arrow keys move, Escape closes and focus returns to the button.
 */
export function WorkspaceSwitcher() {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const current = items().find((el) => el.getAttribute('aria-current') === 'true');
    (current ?? items()[0])?.focus();
    const outside = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const onMenuKey = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      go(at + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      go(at - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      go(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      go(all.length - 1);
    } else if (e.key === 'Tab') close(false);
  };

  const active = ws.active;
  if (ws.status !== 'ready' || ws.workspaces.length === 0) return null;
  const item =
    'flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none';
  return (
    <div className="relative min-w-0">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={active ? `Workspace: ${active.name}, ${ROLE_LABELS[active.role]}` : 'Choose a workspace'}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="flex max-w-[6.5rem] items-center gap-1.5 rounded-md px-2 py-1.5 text-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-100 sm:max-w-[16rem]"
      >
        <span className="truncate font-medium text-slate-900">{active?.name ?? 'Workspaces'}</span>
        {active && (
          <span className="hidden shrink-0 rounded bg-slate-100 px-1.5 text-xs text-slate-600 sm:inline">
            {ROLE_LABELS[active.role]}
          </span>
        )}
        <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-500" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      {open && (
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label="Workspaces"
          onKeyDown={onMenuKey}
          className="fixed inset-x-4 top-14 z-40 rounded-xl sm:absolute sm:inset-x-auto sm:left-0 sm:top-auto sm:mt-2 sm:w-72 border border-slate-200 bg-white p-1 shadow-lg"
        >
          {ws.workspaces.map((w) => (
            <li key={w.slug} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-current={w.slug === active?.slug ? 'true' : undefined}
                onClick={() => {
                  close();
                  navigate(`/w/${w.slug}/dashboard`);
                }}
                className={item}
              >
                <span className={`truncate ${w.slug === active?.slug ? 'font-semibold text-slate-900' : ''}`}>
                  {w.name}
                </span>
                <span className="shrink-0 text-xs text-slate-500">{ROLE_LABELS[w.role]}</span>
              </button>
            </li>
          ))}
          <li role="none" className="mt-1 border-t border-slate-200 pt-1">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                close();
                setCreating(true);
              }}
              className={`${item} font-medium text-brand-700`}
            >
              + New workspace
            </button>
          </li>
        </ul>
      )}
      <Dialog open={creating} onClose={() => setCreating(false)} title="New workspace">
        {creating && (
          <NewWorkspaceForm onCreated={() => setCreating(false)} onCancel={() => setCreating(false)} />
        )}
      </Dialog>
    </div>
  );
}
