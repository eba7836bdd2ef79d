import { WORKSPACE_HEADER } from '@backsignal/contracts/public';

/**
 * The workspace this tab works in, for the x-workspace header of `api` and `uploadWithProgress`. A module
 * variable, not React state: the request helpers are plain functions called from everywhere. Two tabs may work
 * in two workspaces at once, so it is the tab's (its address's), never the server's "current".
 */
let activeSlug: string | null = null;

export const activeWorkspaceSlug = (): string | null => activeSlug;

export function setActiveWorkspaceSlug(slug: string | null): void {
  activeSlug = slug;
}

/** The header naming the tab's workspace, once known; without it the API uses the user's current one. */
export const workspaceHeaders = (): Record<string, string> =>
  activeSlug ? { [WORKSPACE_HEADER]: activeSlug } : {};
