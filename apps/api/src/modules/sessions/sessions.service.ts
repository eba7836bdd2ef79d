import type { WorkspaceSummary } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { newToken, tokenHash } from '../../lib/tokens.ts';
import { sessionsRepo } from './sessions.repo.ts';

/** Absolute lifetime 12 h and idle timeout 2 h (ASVS L2: 12 h absolute satisfies 3.3.2). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** last_seen_at is written at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  role: string;
  emailVerified: boolean;
}

export interface ActiveSession {
  tokenHash: string;
  user: SessionUser;
  /**
   * The membership read with the session for the workspace the request names (`workspaceSlug`, null: the
   * current one): null when the user is not in it. Absent when not read (a session just started).
   */
  workspace?: (WorkspaceSummary & { stale: boolean }) | null;
  workspaceSlug?: string | null;
}

export async function createSession(
  db: Queryable,
  userId: string,
  now: Date,
): Promise<{ token: string; tokenHash: string }> {
  const token = newToken();
  const hashed = tokenHash(token);
  await sessionsRepo.insert(db, {
    tokenHash: hashed,
    userId,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return { token, tokenHash: hashed };
}

/** The session for a cookie token, or null when unknown, expired or idle too long (then it is deleted). */
export async function resolveSession(
  db: Queryable,
  token: string,
  now: Date,
  workspaceSlug: string | null = null,
): Promise<ActiveSession | null> {
  const hashed = tokenHash(token);
  const row = await sessionsRepo.findWithUser(db, hashed, workspaceSlug);
  if (!row) return null;
  const t = now.getTime();
  if (row.expires_at.getTime() <= t || row.last_seen_at.getTime() + SESSION_IDLE_MS <= t) {
    await sessionsRepo.delete(db, hashed);
    return null;
  }
  if (t - row.last_seen_at.getTime() > TOUCH_EVERY_MS) await sessionsRepo.touch(db, hashed, now);
  return {
    tokenHash: hashed,
    user: {
      id: row.user_id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      company: row.company,
      role: row.role,
      emailVerified: row.email_verified,
    },
    workspaceSlug,
    workspace: row.ws_id
      ? { id: row.ws_id, slug: row.ws_slug!, name: row.ws_name!, role: row.ws_role!, stale: row.ws_stale! }
      : null,
  };
}

export const endSession = (db: Queryable, hashed: string) => sessionsRepo.delete(db, hashed);
export const endOtherSessions = (db: Queryable, userId: string, keepTokenHash?: string) =>
  sessionsRepo.deleteForUser(db, userId, keepTokenHash);
