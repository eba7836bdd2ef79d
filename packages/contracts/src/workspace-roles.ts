// Workspace roles without zod: the app's header (the switcher) and its API client load with every page, public
// ones included, and zod would add ~50 KB to each (ADR 0040 budget).

/** Workspace roles, least to most privileged: each can do all the roles before it can (README, decision 0103). */
export const WORKSPACE_ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  viewer: 'Viewer',
  member: 'Member',
  admin: 'Admin',
  owner: 'Owner',
};

/** Whether `role` may do what needs at least `min`. */
export const roleAtLeast = (role: WorkspaceRole, min: WorkspaceRole): boolean =>
  WORKSPACE_ROLES.indexOf(role) >= WORKSPACE_ROLES.indexOf(min);

/** The header the web app names its workspace in (the slug); without it the user's current workspace. */
export const WORKSPACE_HEADER = 'x-workspace';
