import type {
  WebhookCreate,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookUpdate,
  WebhookWithSecret,
} from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

const base = '/api/webhooks';

export const webhooksApi = {
  list: () => api<{ endpoints: WebhookEndpoint[] }>(base),
  create: (body: WebhookCreate) => api<WebhookWithSecret>(base, { method: 'POST', body }),
  update: (id: string, body: WebhookUpdate) =>
    api<{ endpoint: WebhookEndpoint }>(`${base}/${id}`, { method: 'PATCH', body }),
  remove: (id: string) => api<{ message: string }>(`${base}/${id}`, { method: 'DELETE' }),
  rotate: (id: string) => api<WebhookWithSecret>(`${base}/${id}/rotate-secret`, { method: 'POST' }),
  test: (id: string) => api<{ message: string }>(`${base}/${id}/test`, { method: 'POST' }),
  deliveries: (id: string) => api<WebhookDeliveryPage>(`${base}/${id}/deliveries?limit=50`),
  redeliver: (id: string, deliveryId: string) =>
    api<{ message: string }>(`${base}/${id}/deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
};
