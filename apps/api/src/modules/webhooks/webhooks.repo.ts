import type { WebhookDeliveryType, WebhookEventType } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import type { SealedToken } from '../pixels/token-crypto.ts';

export interface EndpointRow {
  id: string;
  workspaceId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  sealed: SealedToken;
  /** The secret before the last rotation, signed with until `until`. */
  previous: { sealed: SealedToken; until: Date } | null;
}

export interface DeliveryRow {
  id: string;
  messageId: string;
  workspaceId: string;
  endpointId: string;
  eventType: WebhookDeliveryType;
  data: Record<string, unknown>;
  occurredAt: Date;
  createdAt: Date;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseBody: string | null;
  error: string | null;
}

export interface AttemptOutcome {
  status: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
}

const buf = (v: unknown) => Buffer.from(v as Uint8Array);
const sealedOf = (r: Record<string, unknown>, p = ''): SealedToken => ({
  ciphertext: buf(r[`${p}secret_ciphertext`]),
  iv: buf(r[`${p}secret_iv`]),
  tag: buf(r[`${p}secret_tag`]),
  keyVersion: Number(r[`${p}key_version`]),
});
const toEndpoint = (r: Record<string, unknown>): EndpointRow => ({
  id: r.id as string,
  workspaceId: r.workspace_id as string,
  url: r.url as string,
  description: r.description as string,
  events: r.events as WebhookEventType[],
  enabled: r.enabled as boolean,
  disabledReason: (r.disabled_reason as string | null) ?? null,
  failingSince: (r.failing_since as Date | null) ?? null,
  createdAt: r.created_at as Date,
  sealed: sealedOf(r),
  previous: r.prev_secret_ciphertext
    ? { sealed: sealedOf(r, 'prev_'), until: r.prev_secret_until as Date }
    : null,
});
const ENDPOINT_COLS = `id, workspace_id, url, description, events, enabled, disabled_reason, failing_since, created_at,
  secret_ciphertext, secret_iv, secret_tag, key_version,
  prev_secret_ciphertext, prev_secret_iv, prev_secret_tag, prev_key_version, prev_secret_until`;

const toDelivery = (r: Record<string, unknown>): DeliveryRow => ({
  id: r.id as string,
  messageId: r.message_id as string,
  workspaceId: r.workspace_id as string,
  endpointId: r.endpoint_id as string,
  eventType: r.event_type as WebhookDeliveryType,
  data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  occurredAt: r.occurred_at as Date,
  createdAt: r.created_at as Date,
  status: r.status as DeliveryRow['status'],
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at as Date,
  lastAttemptAt: (r.last_attempt_at as Date | null) ?? null,
  responseStatus: (r.response_status as number | null) ?? null,
  durationMs: (r.duration_ms as number | null) ?? null,
  responseBody: (r.response_body as string | null) ?? null,
  error: (r.error as string | null) ?? null,
});
const DELIVERY_COLS = `d.id, d.message_id, d.workspace_id, d.endpoint_id, d.event_type, d.data, d.occurred_at, d.created_at,
  d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.response_status, d.duration_ms, d.response_body, d.error`;

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Webhook endpoints and their deliveries (migration 0850, decision 0117). */
export const webhooksRepo = {
  async list(db: Queryable, workspaceId: string): Promise<EndpointRow[]> {
    const r = await db.query(
      `select ${ENDPOINT_COLS} from webhook_endpoints where workspace_id = $1 order by created_at, id`,
      [workspaceId],
    );
    return r.rows.map(toEndpoint);
  },
  async find(db: Queryable, workspaceId: string, id: string): Promise<EndpointRow | undefined> {
    if (!isUuid(id)) return undefined;
    const r = await db.query(
      `select ${ENDPOINT_COLS} from webhook_endpoints where id = $1 and workspace_id = $2`,
      [id, workspaceId],
    );
    return r.rows[0] ? toEndpoint(r.rows[0]) : undefined;
  },
  async insert(
    db: Queryable,
    e: {
      id: string;
      workspaceId: string;
      url: string;
      description: string;
      events: string[];
      sealed: SealedToken;
    },
  ): Promise<void> {
    await db.query(
      `insert into webhook_endpoints (id, workspace_id, url, description, events, secret_ciphertext, secret_iv, secret_tag, key_version)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        e.id,
        e.workspaceId,
        e.url,
        e.description,
        e.events,
        e.sealed.ciphertext,
        e.sealed.iv,
        e.sealed.tag,
        e.sealed.keyVersion,
      ],
    );
  },
  /** Enabling again (by hand) forgets the failures that disabled it: the next failure starts a new count. */
  async update(
    db: Queryable,
    workspaceId: string,
    id: string,
    e: { url: string; description: string; events: string[]; enabled: boolean },
  ): Promise<void> {
    await db.query(
      `update webhook_endpoints set url = $3, description = $4, events = $5,
         failing_since = case when $6 and not enabled then null else failing_since end,
         disabled_reason = case when $6 then null else disabled_reason end,
         enabled = $6, updated_at = now()
       where id = $1 and workspace_id = $2`,
      [id, workspaceId, e.url, e.description, e.events, e.enabled],
    );
  },
  /** The new secret signs from now on; the current one keeps signing beside it until `keepUntil`. */
  async rotate(
    db: Queryable,
    workspaceId: string,
    id: string,
    sealed: SealedToken,
    keepUntil: Date,
  ): Promise<void> {
    await db.query(
      `update webhook_endpoints set
         prev_secret_ciphertext = secret_ciphertext, prev_secret_iv = secret_iv, prev_secret_tag = secret_tag,
         prev_key_version = key_version, prev_secret_until = $7,
         secret_ciphertext = $3, secret_iv = $4, secret_tag = $5, key_version = $6, updated_at = now()
       where id = $1 and workspace_id = $2`,
      [id, workspaceId, sealed.ciphertext, sealed.iv, sealed.tag, sealed.keyVersion, keepUntil],
    );
  },
  async delete(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await db.query('delete from webhook_endpoints where id = $1 and workspace_id = $2', [
      id,
      workspaceId,
    ]);
    return r.rowCount > 0;
  },

  /** A message to one endpoint, whatever it subscribed to ("Send test event"). */
  async insertDelivery(
    db: Queryable,
    d: { workspaceId: string; endpointId: string; eventType: string; data: object },
  ): Promise<string> {
    const r = await db.query<{ id: string }>(
      `insert into webhook_deliveries (workspace_id, endpoint_id, event_type, data) values ($1, $2, $3, $4::jsonb)
       returning id`,
      [d.workspaceId, d.endpointId, d.eventType, JSON.stringify(d.data)],
    );
    return r.rows[0]!.id;
  },
  /** The same message (same webhook-id, event and data) queued again as a delivery of its own. */
  async redeliver(
    db: Queryable,
    workspaceId: string,
    endpointId: string,
    deliveryId: string,
  ): Promise<string | null> {
    if (!isUuid(deliveryId)) return null;
    const r = await db.query<{ id: string }>(
      `insert into webhook_deliveries (message_id, workspace_id, endpoint_id, event_type, data, occurred_at)
       select message_id, workspace_id, endpoint_id, event_type, data, occurred_at from webhook_deliveries
        where id = $1 and workspace_id = $2 and endpoint_id = $3
       returning id`,
      [deliveryId, workspaceId, endpointId],
    );
    return r.rows[0]?.id ?? null;
  },
  async deliveries(
    db: Queryable,
    workspaceId: string,
    endpointId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const r = await db.query(
      `select ${DELIVERY_COLS} from webhook_deliveries d where d.workspace_id = $1 and d.endpoint_id = $2
        order by d.created_at desc, d.id desc limit $3 offset $4`,
      [workspaceId, endpointId, page.limit, page.offset],
    );
    const t = await db.query<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where workspace_id = $1 and endpoint_id = $2',
      [workspaceId, endpointId],
    );
    return { rows: r.rows.map(toDelivery), total: t.rows[0]!.n };
  },

  /**
   * The dispatcher's claim: due pending deliveries of enabled endpoints, locked so concurrent workers skip them,
   * leased under a new token until `leaseUntil`. A worker that dies holding one leaves it due again once the
   * lease ends.
   */
  async claimDue(
    db: Queryable,
    now: Date,
    leaseUntil: Date,
    token: string,
    limit: number,
  ): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow }[]> {
    const r = await db.query(
      `with due as (
         select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          where d.status = 'pending' and d.next_attempt_at <= $1 and (d.lease_until is null or d.lease_until <= $1)
            and e.enabled
          order by d.next_attempt_at limit $4 for update of d skip locked),
       claimed as (
         update webhook_deliveries d set claim_token = $3, lease_until = $2 from due where d.id = due.id returning d.*)
       select ${DELIVERY_COLS}, ${ENDPOINT_COLS.split(',')
         .map((c) => `e.${c.trim()} as e_${c.trim()}`)
         .join(', ')}
         from claimed d join webhook_endpoints e on e.id = d.endpoint_id`,
      [now, leaseUntil, token, limit],
    );
    return r.rows.map((row) => ({
      delivery: toDelivery(row),
      endpoint: toEndpoint(
        Object.fromEntries(
          Object.entries(row)
            .filter(([k]) => k.startsWith('e_'))
            .map(([k, v]) => [k.slice(2), v]),
        ),
      ),
    }));
  },

  /**
   * An attempt's outcome, written only while the claim is held. `next` null settles it ('succeeded' or
   * 'failed'); otherwise it stays pending until then. Answers whether the claim was still held.
   */
  async settle(
    db: Queryable,
    id: string,
    token: string,
    at: Date,
    o: AttemptOutcome,
    result: { status: 'succeeded' | 'failed' | 'pending'; next: Date | null },
  ): Promise<boolean> {
    const r = await db.query(
      `update webhook_deliveries set status = $4, attempts = attempts + 1, last_attempt_at = $3,
         next_attempt_at = coalesce($9, next_attempt_at), response_status = $5, duration_ms = $6, response_body = $7,
         error = $8, claim_token = null, lease_until = null
       where id = $1 and claim_token = $2`,
      [id, token, at, result.status, o.status, o.durationMs, o.responseBody, o.error, result.next],
    );
    return r.rowCount > 0;
  },

  /** A success ends the endpoint's run of failures. */
  async endpointSucceeded(db: Queryable, id: string): Promise<void> {
    await db.query(
      'update webhook_endpoints set failing_since = null where id = $1 and failing_since is not null',
      [id],
    );
  },
  /**
   * A failed attempt: the run of failures starts now if none was going. When it began before `disableBefore`
   * the endpoint is disabled; the update that disables it checks it is still enabled, so of two workers failing
   * at once one disables it (and mails). Answers the endpoint's workspace and URL to that one only.
   */
  async endpointFailed(
    db: Queryable,
    id: string,
    at: Date,
    disableBefore: Date,
    reason: string,
  ): Promise<{ workspaceId: string; url: string } | null> {
    const f = await db.query<{ failing_since: Date }>(
      `update webhook_endpoints set failing_since = coalesce(failing_since, $2) where id = $1 returning failing_since`,
      [id, at],
    );
    const since = f.rows[0]?.failing_since;
    if (!since || since > disableBefore) return null;
    const r = await db.query<{ workspace_id: string; url: string }>(
      `update webhook_endpoints set enabled = false, disabled_reason = $2, updated_at = now()
       where id = $1 and enabled returning workspace_id, url`,
      [id, reason],
    );
    return r.rows[0] ? { workspaceId: r.rows[0].workspace_id, url: r.rows[0].url } : null;
  },

  /**
   * Retention of the delivery log. A delivery still pending that old (its endpoint disabled past its 24 hours of
   * retries) would never be sent again, so it goes too.
   */
  async deleteBefore(db: Queryable, before: Date): Promise<number> {
    const r = await db.query('delete from webhook_deliveries where created_at < $1', [before]);
    return r.rowCount;
  },
};
