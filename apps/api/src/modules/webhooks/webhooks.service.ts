import { randomUUID } from 'node:crypto';
import type {
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookUpdate,
  WebhookWithSecret,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../errors/app-error.ts';
import { sealToken } from '../pixels/token-crypto.ts';
import { newSecret } from './webhook-signature.ts';
import { secretAad } from './webhook-secret.ts';
import { webhooksRepo, type DeliveryRow, type EndpointRow } from './webhooks.repo.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'config' | 'now'>;

/** After a rotation the previous secret signs beside the new one this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Endpoints a workspace may have: each event becomes a delivery per endpoint. */
export const MAX_ENDPOINTS = 20;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentEndpoint = (e: EndpointRow): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: iso(e.failingSince),
  createdAt: e.createdAt.toISOString(),
});

const presentDelivery = (d: DeliveryRow): WebhookDelivery => ({
  id: d.id,
  messageId: d.messageId,
  eventType: d.eventType,
  createdAt: d.createdAt.toISOString(),
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  lastAttemptAt: iso(d.lastAttemptAt),
  responseStatus: d.responseStatus,
  durationMs: d.durationMs,
  responseBody: d.responseBody,
  error: d.error,
});

/**
 * The URL as sources take it: https (plain http outside production, for local receivers), no credentials in it.
 * Where it points is checked at each attempt, on the address connected to (the SSRF rule of sources).
 */
function checkUrl(deps: Deps, url: string): string {
  const u = URL.parse(url);
  if (!u || (u.protocol !== 'https:' && !(u.protocol === 'http:' && !deps.config.isProduction)))
    throw badRequest('Enter a URL starting with https://.', { url: 'Enter a URL starting with https://.' });
  if (u.username || u.password)
    throw badRequest('A webhook URL cannot carry a user name or password.', {
      url: 'A webhook URL cannot carry a user name or password.',
    });
  return u.toString();
}

async function own(deps: Deps, workspaceId: string, id: string): Promise<EndpointRow> {
  const e = await webhooksRepo.find(deps.db, workspaceId, id);
  if (!e) throw notFound('Webhook endpoint not found.');
  return e;
}

export async function listEndpoints(deps: Deps, workspaceId: string): Promise<WebhookEndpoint[]> {
  return (await webhooksRepo.list(deps.db, workspaceId)).map(presentEndpoint);
}

export async function createEndpoint(
  deps: Deps,
  workspaceId: string,
  body: WebhookCreate,
): Promise<WebhookWithSecret> {
  const url = checkUrl(deps, body.url);
  if ((await webhooksRepo.list(deps.db, workspaceId)).length >= MAX_ENDPOINTS)
    throw badRequest(`A workspace can have up to ${MAX_ENDPOINTS} webhook endpoints.`);
  const id = randomUUID();
  const secret = newSecret();
  await webhooksRepo.insert(deps.db, {
    id,
    workspaceId,
    url,
    description: body.description ?? '',
    events: body.events,
    sealed: sealToken(deps.config.tokenKeys, secret, secretAad(workspaceId, id)),
  });
  return { endpoint: presentEndpoint(await own(deps, workspaceId, id)), secret };
}

export async function updateEndpoint(
  deps: Deps,
  workspaceId: string,
  id: string,
  body: WebhookUpdate,
): Promise<WebhookEndpoint> {
  const e = await own(deps, workspaceId, id);
  await webhooksRepo.update(deps.db, workspaceId, id, {
    url: body.url === undefined ? e.url : checkUrl(deps, body.url),
    description: body.description ?? e.description,
    events: body.events ?? e.events,
    enabled: body.enabled ?? e.enabled,
  });
  return presentEndpoint(await own(deps, workspaceId, id));
}

export async function rotateSecret(deps: Deps, workspaceId: string, id: string): Promise<WebhookWithSecret> {
  await own(deps, workspaceId, id);
  const secret = newSecret();
  const sealed = sealToken(deps.config.tokenKeys, secret, secretAad(workspaceId, id));
  await webhooksRepo.rotate(
    deps.db,
    workspaceId,
    id,
    sealed,
    new Date(deps.now().getTime() + ROTATION_OVERLAP_MS),
  );
  return { endpoint: presentEndpoint(await own(deps, workspaceId, id)), secret };
}

export async function deleteEndpoint(deps: Deps, workspaceId: string, id: string): Promise<EndpointRow> {
  const e = await own(deps, workspaceId, id);
  await webhooksRepo.delete(deps.db, workspaceId, id);
  return e;
}

/** "Send test event": a webhook.test message to this endpoint, queued like any other. */
export async function sendTestEvent(deps: Deps, workspaceId: string, id: string): Promise<string> {
  const e = await own(deps, workspaceId, id);
  if (!e.enabled)
    throw new AppError('INVALID_STATE', 'Enable the endpoint first: a disabled endpoint gets no events.');
  return webhooksRepo.insertDelivery(deps.db, {
    workspaceId,
    endpointId: id,
    eventType: 'webhook.test',
    data: { endpointId: id },
  });
}

export async function listDeliveries(
  deps: Deps,
  workspaceId: string,
  id: string,
  page: { limit: number; offset: number },
) {
  await own(deps, workspaceId, id);
  const { rows, total } = await webhooksRepo.deliveries(deps.db, workspaceId, id, page);
  return { deliveries: rows.map(presentDelivery), total };
}

export async function redeliver(
  deps: Deps,
  workspaceId: string,
  id: string,
  deliveryId: string,
): Promise<string> {
  await own(deps, workspaceId, id);
  const copy = await webhooksRepo.redeliver(deps.db, workspaceId, id, deliveryId);
  if (!copy) throw notFound('Delivery not found.');
  return copy;
}
