import type { WebhookEventType } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';

/**
 * The outbox (decision 0117): an insert of one pending delivery per enabled endpoint of the event's workspace
 * subscribed to its type, from `events`, a select of (workspace_id, type, data). Statements that change what an
 * event tells about put it in a CTE beside the change (a run ended, a source paused), so the event exists exactly
 * when the change committed and once, whichever worker made it. `data` carries ids, counts and statuses only.
 */
export function outboxInsert(events: string): string {
  return `insert into webhook_deliveries (workspace_id, endpoint_id, event_type, data)
    select ev.workspace_id, e.id, ev.type, ev.data from (${events}) ev (workspace_id, type, data)
      join webhook_endpoints e on e.workspace_id = ev.workspace_id and e.enabled and ev.type = any(e.events)`;
}

/** One event from code that holds the values (inside the change's transaction where there is one). */
export async function emitWebhook(
  q: Queryable,
  workspaceId: string,
  type: WebhookEventType,
  data: Record<string, string | number | boolean | null>,
): Promise<void> {
  await q.query(outboxInsert('select $1::uuid, $2::text, $3::jsonb'), [
    workspaceId,
    type,
    JSON.stringify(data),
  ]);
}
