import { randomBytes, randomUUID } from 'node:crypto';
import { slugBase, type WorkspaceSummary } from '@backsignal/contracts';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { workspacesRepo } from './workspaces.repo.ts';

/** A user may belong to this many workspaces: an agency with a hundred clients, with room. */
export const MAX_WORKSPACES_PER_USER = 200;

/** The slug: the name's words and 8 random hex digits, so a slug tells nothing of how many workspaces exist. */
const newSlug = (name: string) => `${slugBase(name)}-${randomBytes(4).toString('hex')}`;

/**
 * Creates a workspace owned by `ownerId`. A user's first workspace takes the user's id (as migration 0800 gave
 * every account before workspaces), so an account's first workspace is found the same way old and new.
 */
export async function createWorkspace(
  db: Queryable,
  input: { id?: string; name: string; ownerId: string },
): Promise<WorkspaceSummary> {
  const id = input.id ?? randomUUID();
  // 32 random bits per try: a clash is already rare, five in a row never happens in practice.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = newSlug(input.name);
    if (await workspacesRepo.insert(db, { id, name: input.name, slug })) {
      await workspacesRepo.addMember(db, id, input.ownerId, 'owner');
      return { id, slug, name: input.name, role: 'owner' };
    }
  }
  throw new Error('Could not find a free workspace slug');
}

/** The name a user's first workspace takes: their company, else their name. */
export const firstWorkspaceName = (u: { company: string; firstName: string; lastName: string }) =>
  u.company.trim() || `${u.firstName} ${u.lastName}`.trim();

export async function createForUser(db: Db, userId: string, name: string): Promise<WorkspaceSummary> {
  const mine = await workspacesRepo.listForUser(db, userId);
  if (mine.length >= MAX_WORKSPACES_PER_USER)
    throw new AppError('CONFLICT', `You can belong to at most ${MAX_WORKSPACES_PER_USER} workspaces.`);
  return db.transaction(async (tx) => {
    const w = await createWorkspace(tx, { name, ownerId: userId });
    await workspacesRepo.setCurrent(tx, userId, w.id);
    return w;
  });
}

/** Deletes a workspace and everything it owns, when the name typed matches (the owner's confirmation). */
export async function deleteWorkspace(db: Db, w: WorkspaceSummary, confirm: string): Promise<void> {
  if (confirm.trim() !== w.name)
    throw new AppError('VALIDATION_FAILED', 'Type the workspace name to confirm.', {
      confirm: 'Type the workspace name to confirm.',
    });
  await db.transaction((tx) => workspacesRepo.delete(tx, [w.id]));
}

export const SLUG_TAKEN = 'This address is taken. Choose another.';

/**
 * Moves the workspace to a new address; answers whether it moved. The old address then names no workspace (a
 * 404, like any unknown slug): no redirect is kept, so another workspace may take the old slug later and links
 * to it never open this one's data for someone who is not a member (decision 0108).
 */
export async function changeSlug(db: Db, w: WorkspaceSummary, slug: string): Promise<boolean> {
  if (slug === w.slug) return false;
  if (!(await workspacesRepo.setSlug(db, w.id, slug)))
    throw new AppError('CONFLICT', SLUG_TAKEN, { slug: SLUG_TAKEN });
  return true;
}
