import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeySummary,
} from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../errors/app-error.ts';
import { tokenHash } from '../../lib/tokens.ts';
import { apiKeysRepo, type ApiKeyAuthRow, type ApiKeyRow } from './api-keys.repo.ts';

/** How many of a key's characters are kept in clear and shown: the fixed prefix and 8 random ones. */
const SHOWN = API_KEY_PREFIX.length + 8;
/** A key's last use is written at most this often, or when its address changes: one write a minute per key. */
const TOUCH_EVERY_MS = 60_000;

const present = (r: ApiKeyRow): ApiKeySummary => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  createdAt: r.created_at.toISOString(),
  createdBy: r.created_by_label,
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  lastUsedIp: r.last_used_ip,
  active: r.active,
});

export async function listKeys(db: Queryable, workspaceId: string): Promise<ApiKeySummary[]> {
  return (await apiKeysRepo.list(db, workspaceId)).map(present);
}

/** A new key: 192 random bits after the prefix. Only its SHA-256 is stored; the secret is answered once. */
export async function createKey(
  db: Queryable,
  workspaceId: string,
  createdBy: string,
  input: ApiKeyCreate,
): Promise<ApiKeyCreated> {
  const secret = API_KEY_PREFIX + randomBytes(24).toString('base64url');
  const id = randomUUID();
  await apiKeysRepo.insert(db, {
    id,
    workspaceId,
    name: input.name,
    scope: input.scope,
    keyHash: tokenHash(secret),
    prefix: secret.slice(0, SHOWN),
    createdBy,
  });
  const [row] = await apiKeysRepo.list(db, workspaceId, id);
  return {
    key: present(row!),
    secret,
    message: 'API key created. Copy it now: it will not be shown again.',
  };
}

export async function revokeKey(db: Queryable, workspaceId: string, id: string, now: Date): Promise<string> {
  const name = await apiKeysRepo.revoke(db, workspaceId, id, now);
  if (name === null) throw notFound('API key not found.');
  return name;
}

/**
 * The key a bearer token is, or null: unknown, revoked, or its creator no longer an owner or admin. Its last use
 * is recorded on the way (to the minute, and at once when the address changes).
 */
export async function authenticate(
  db: Queryable,
  token: string,
  ip: string,
  now: Date,
): Promise<ApiKeyAuthRow | null> {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return null;
  const key = await apiKeysRepo.findForAuth(db, tokenHash(token));
  if (!key) return null;
  const stale = !key.last_used_at || now.getTime() - key.last_used_at.getTime() >= TOUCH_EVERY_MS;
  if (stale || key.last_used_ip !== ip) await apiKeysRepo.touch(db, key.id, ip, now);
  return key;
}
