import type { ApiKeyScope } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  created_at: Date;
  created_by_label: string;
  last_used_at: Date | null;
  last_used_ip: string | null;
  active: boolean;
}

/** A key as a call presents it: what it may do, in which workspace, and when it was last seen. */
export interface ApiKeyAuthRow {
  id: string;
  name: string;
  scope: ApiKeyScope;
  created_by: string;
  workspace_id: string;
  workspace_slug: string;
  workspace_name: string;
  last_used_at: Date | null;
  last_used_ip: string | null;
}

/** Its creator is still an owner or admin of the key's workspace (decision 0113). */
const CREATOR_ADMIN = `exists (select 1 from workspace_members m
  where m.workspace_id = k.workspace_id and m.user_id = k.created_by and m.role in ('owner', 'admin'))`;

/** API keys (migration 0840). */
export const apiKeysRepo = {
  async insert(
    db: Queryable,
    k: {
      id: string;
      workspaceId: string;
      name: string;
      scope: ApiKeyScope;
      keyHash: string;
      prefix: string;
      createdBy: string;
    },
  ): Promise<void> {
    await db.query(
      `insert into api_keys (id, workspace_id, name, scope, key_hash, prefix, created_by)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [k.id, k.workspaceId, k.name, k.scope, k.keyHash, k.prefix, k.createdBy],
    );
  },

  /** The workspace's keys not revoked, newest first. */
  async list(db: Queryable, workspaceId: string, id?: string): Promise<ApiKeyRow[]> {
    const r = await db.query<ApiKeyRow>(
      `select k.id, k.name, k.scope, k.prefix, k.created_at, k.last_used_at, k.last_used_ip,
              coalesce(nullif(trim(concat(u.first_name, ' ', u.last_name)), ''), u.email, 'Former member')
                as created_by_label,
              ${CREATOR_ADMIN} as active
         from api_keys k left join users u on u.id = k.created_by
        where k.workspace_id = $1 and k.revoked_at is null and ($2::uuid is null or k.id = $2::uuid)
        order by k.created_at desc, k.id`,
      [workspaceId, id ?? null],
    );
    return r.rows;
  },

  /** Revokes the key; answers its name, or null when the workspace has no such key still valid. */
  async revoke(db: Queryable, workspaceId: string, id: string, now: Date): Promise<string | null> {
    const r = await db.query<{ name: string }>(
      `update api_keys set revoked_at = $3 where workspace_id = $1 and id = $2 and revoked_at is null
       returning name`,
      [workspaceId, id, now],
    );
    return r.rows[0]?.name ?? null;
  },

  /** The key with this hash, when it is not revoked and its creator may still hold it; one indexed query. */
  async findForAuth(db: Queryable, keyHash: string): Promise<ApiKeyAuthRow | null> {
    const r = await db.query<ApiKeyAuthRow>(
      `select k.id, k.name, k.scope, k.created_by, k.last_used_at, k.last_used_ip,
              w.id as workspace_id, w.slug as workspace_slug, w.name as workspace_name
         from api_keys k join workspaces w on w.id = k.workspace_id
        where k.key_hash = $1 and k.revoked_at is null and ${CREATOR_ADMIN}`,
      [keyHash],
    );
    return r.rows[0] ?? null;
  },

  async touch(db: Queryable, id: string, ip: string, now: Date): Promise<void> {
    await db.query('update api_keys set last_used_at = $2, last_used_ip = $3 where id = $1', [id, now, ip]);
  },

  /** Revoked keys RETENTION_DAYS after their revocation (their last address is a person's). */
  async deleteRevokedBefore(db: Queryable, cutoff: Date): Promise<number> {
    const r = await db.query('delete from api_keys where revoked_at < $1', [cutoff]);
    return r.rowCount;
  },
};
