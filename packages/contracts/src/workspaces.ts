import { z } from 'zod';

/** Workspace roles, least to most privileged: each can do all the roles before it can (README, decision 0103). */
export const WORKSPACE_ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export const WorkspaceRole = z.enum(WORKSPACE_ROLES);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

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

export const WorkspaceSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: WorkspaceRole,
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

/** GET /api/workspaces: the user's workspaces, and the one the app opens when the address names none. */
export const WorkspaceList = z.object({
  workspaces: z.array(WorkspaceSummary),
  current: z.string().nullable(),
});
export type WorkspaceList = z.infer<typeof WorkspaceList>;

const workspaceName = z
  .string({ error: 'Workspace name is required.' })
  .trim()
  .min(1, 'Workspace name is required.')
  .max(80, 'Workspace name must be at most 80 characters.');

export const WorkspaceCreate = z.object({ name: workspaceName });
export type WorkspaceCreate = z.infer<typeof WorkspaceCreate>;

export const WorkspaceUpdate = z.object({ name: workspaceName });
export type WorkspaceUpdate = z.infer<typeof WorkspaceUpdate>;

/** Deleting a workspace: its name typed again, as the confirmation. */
export const WorkspaceDelete = z.object({ confirm: z.string().max(200) });
export type WorkspaceDelete = z.infer<typeof WorkspaceDelete>;

/** Lower-case words of a name joined by '-', at most 40 characters ('workspace' when none). */
export function slugBase(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base || 'workspace';
}
