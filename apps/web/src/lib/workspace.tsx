import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WorkspaceList, WorkspaceSummary } from '@backsignal/contracts';
import { isAppScreen, roleAtLeast, type WorkspaceRole } from '@backsignal/contracts/public';
import { api } from './api.ts';
import { useSession } from './session.tsx';
import { activeWorkspaceSlug, setActiveWorkspaceSlug } from './active-workspace.ts';

export { activeWorkspaceSlug };

/** `to` inside workspace `slug` when it is one of the app's screens; any other path (or no slug) unchanged. */
export function wsPath(slug: string | null, to: string): string {
  return slug && isAppScreen(to) ? `/w/${slug}${to}` : to;
}

type Status = 'idle' | 'loading' | 'ready' | 'failed';

interface WorkspaceValue {
  status: Status;
  workspaces: WorkspaceSummary[];
  /** The workspace the server opens when the address names none. */
  current: string | null;
  /** The workspace this tab works in (its address's), once known. */
  active: WorkspaceSummary | null;
  /** Makes `slug` the tab's workspace; true when the user is in it. */
  activate(slug: string): boolean;
  /** Re-reads the list (after a create, rename or delete). */
  reload(): Promise<WorkspaceList | null>;
}

const WorkspaceContext = createContext<WorkspaceValue | null>(null);

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const { status: sessionStatus, user } = useSession();
  const queries = useQueryClient();
  const [list, setList] = useState<WorkspaceList | null>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [activeSlugState, setActiveSlugState] = useState<string | null>(activeWorkspaceSlug);

  const reload = useCallback(async () => {
    setStatus((s) => (s === 'ready' ? s : 'loading'));
    try {
      const next = await api<WorkspaceList>('/api/workspaces');
      setList(next);
      setStatus('ready');
      return next;
    } catch (err) {
      console.error('Workspace list failed', err);
      setStatus('failed');
      return null;
    }
  }, []);

  const verified = sessionStatus === 'loggedIn' && !!user?.emailVerified;
  useEffect(() => {
    if (verified) void reload();
  }, [verified, reload]);

  const activate = useCallback(
    (slug: string) => {
      if (!list?.workspaces.some((w) => w.slug === slug)) return false;
      const previous = activeWorkspaceSlug();
      if (previous !== slug) {
        // Every cached answer is the previous workspace's: none may show in this one.
        if (previous !== null) queries.removeQueries();
        setActiveWorkspaceSlug(slug);
        // Where the app lands next time; a failure only costs that convenience.
        if (list.current !== slug) {
          setList({ ...list, current: slug });
          api('/api/workspaces/current', { method: 'PUT', body: { slug } }).catch((err) =>
            console.error('Opening the workspace failed', err),
          );
        }
      }
      setActiveSlugState(slug);
      return true;
    },
    [list, queries],
  );

  const value = useMemo<WorkspaceValue>(
    () => ({
      status,
      workspaces: list?.workspaces ?? [],
      current: list?.current ?? null,
      active: list?.workspaces.find((w) => w.slug === activeSlugState) ?? null,
      activate,
      reload,
    }),
    [status, list, activeSlugState, activate, reload],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceValue {
  const ctx = useContext(WorkspaceContext);
  if (!ctx) throw new Error('useWorkspace outside WorkspaceProvider');
  return ctx;
}

/** The workspace context, or null outside a provider (a screen rendered alone, as in its own test). */
export function useWorkspaceOptional(): WorkspaceValue | null {
  return useContext(WorkspaceContext);
}

/** The active workspace's slug, or null outside a workspace (and outside a provider, as in a screen's own test). */
export function useWorkspaceSlug(): string | null {
  return useContext(WorkspaceContext)?.active?.slug ?? null;
}

/**
 * Whether the user's role in the active workspace reaches `min`, to hide what it cannot do. Outside a known
 * workspace nothing is hidden: the API refuses by role whatever the screen shows.
 */
export function useCan(min: WorkspaceRole): boolean {
  const role = useContext(WorkspaceContext)?.active?.role;
  return role ? roleAtLeast(role, min) : true;
}
