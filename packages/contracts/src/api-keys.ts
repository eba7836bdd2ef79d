import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';
import type { WorkspaceRole } from './workspace-roles.ts';

/**
 * API keys of a workspace (issue 32, decision 0113). A scope stands for a workspace role: `read` reads like a
 * viewer, `send` uploads and sends like a member, `admin` also manages pixel accounts and sources like an admin.
 */
export const API_KEY_SCOPES = ['read', 'send', 'admin'] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES, { error: 'Choose a scope: read, send or admin.' });
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

export const SCOPE_ROLE: Record<ApiKeyScope, WorkspaceRole> = {
  read: 'viewer',
  send: 'member',
  admin: 'admin',
};

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read: read-only',
  send: 'Send: upload and send',
  admin: 'Admin: also pixel accounts and sources',
};

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'bsk_';

export const ApiKeyCreate = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(80, 'Name must be at most 80 characters.'),
  scope: ApiKeyScope,
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  scope: ApiKeyScope,
  /** The key's first characters, for recognition; the key itself is shown once, at creation. */
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** False once its creator is no longer an owner or admin of the workspace: the key is refused. */
  active: z.boolean(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

export const ApiKeyList = z.object({ keys: z.array(ApiKeySummary) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const ApiKeyCreated = z.object({ key: ApiKeySummary, secret: z.string(), message: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

/** The API reference page (Settings → API keys links to it); every v1 error links to its section on errors. */
export const API_DOCS_PATH = '/settings/api-docs';

/** The header a v1 POST may carry so that a retry returns the first answer (kept 24 hours). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Every /api/v1 error: a stable code, the screens' plain message, the field it is about, and where to read more. */
export const V1Error = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  field: z.string().optional(),
  docs: z.string(),
  requestId: z.string().optional(),
});
export type V1Error = z.infer<typeof V1Error>;
