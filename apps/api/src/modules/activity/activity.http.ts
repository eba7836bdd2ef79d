import type { FastifyRequest } from 'fastify';
import type { ActivityDetails, ActivityKind } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { currentWorkspace } from '../../plugins/workspace.ts';
import { actorLabel, recordActivity } from './activity.service.ts';

/**
 * Records what the request's member (or API key, for its creator: decision 0113) just did in the request's
 * workspace, after the action succeeded. Best effort (decision 0106): a failed write is logged and never fails
 * the action the user already has.
 */
export async function logActivity(
  db: Queryable,
  request: FastifyRequest,
  kind: ActivityKind,
  subject?: string | null,
  details?: ActivityDetails,
): Promise<void> {
  const user = request.session?.user;
  const key = request.apiKey;
  const actor = user
    ? { actorUserId: user.id, actorLabel: actorLabel(user) }
    : key
      ? { actorUserId: key.createdBy, actorLabel: `API key "${key.name}"` }
      : null;
  if (!actor) return;
  const workspaceId = currentWorkspace(request).id;
  try {
    await recordActivity(db, {
      workspaceId,
      ...actor,
      kind,
      subject: subject ?? null,
      details,
      ip: clientAddress(request.ip),
    });
  } catch (err) {
    request.log.error({ err, kind, workspaceId }, 'activity entry not written');
  }
}
