import type { ApiKeyCreate, ApiKeyCreated, ApiKeyList, MessageResponse } from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

/** The workspace's API keys (decision 0113): owners and admins only. */
export const apiKeysApi = {
  list: () => api<ApiKeyList>('/api/workspace/api-keys'),
  create: (body: ApiKeyCreate) => api<ApiKeyCreated>('/api/workspace/api-keys', { method: 'POST', body }),
  revoke: (id: string) => api<MessageResponse>(`/api/workspace/api-keys/${id}`, { method: 'DELETE' }),
};
