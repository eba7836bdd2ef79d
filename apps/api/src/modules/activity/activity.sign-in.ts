import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/db.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { noteSignIn, SIGN_IN_EVERY_MS } from './activity.service.ts';

/**
 * The members this process has seen sign in to a workspace lately: their next requests skip the statement. The
 * database decides whether an entry is due, so several processes still write one per 12 hours.
 */
const noted = new Map<string, number>();
const NOTED_MAX = 10_000;

/** Called once a request's workspace is known: records the member's sign-in to it when one is due. */
export async function noteWorkspaceSignIn(db: Queryable, request: FastifyRequest, workspaceId: string) {
  const user = request.session?.user;
  if (!user) return;
  const key = `${workspaceId}|${user.id}`;
  const now = Date.now();
  const last = noted.get(key);
  if (last !== undefined && now - last < SIGN_IN_EVERY_MS) return;
  if (noted.size >= NOTED_MAX) noted.clear();
  noted.set(key, now);
  try {
    await noteSignIn(db, { workspaceId, userId: user.id, ip: clientAddress(request.ip), now: new Date(now) });
  } catch (err) {
    noted.delete(key);
    request.log.error({ err, workspaceId }, 'sign-in activity entry not written');
  }
}
