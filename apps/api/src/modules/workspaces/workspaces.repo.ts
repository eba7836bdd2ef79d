import type { Queryable } from '../../db/db.ts';
import type { WorkspaceRole, WorkspaceSummary } from '@backsignal/contracts';

type Row = { id: string; slug: string; name: string; role: WorkspaceRole };

const STALE = `coalesce(m.last_active_at < now() - interval '1 minute', true) as stale`;

/** Workspaces and their members (migration 0800). */
export const workspacesRepo = {
  /** Inserts the workspace, or answers false when its slug is taken. */
  async insert(db: Queryable, w: { id: string; name: string; slug: string }): Promise<boolean> {
    const r = await db.query(
      'insert into workspaces (id, name, slug) values ($1, $2, $3) on conflict (slug) do nothing',
      [w.id, w.name, w.slug],
    );
    return r.rowCount > 0;
  },

  async addMember(db: Queryable, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
      workspaceId,
      userId,
      role,
    ]);
  },

  /**
   * The user's membership of the workspace with this slug, or (slug null) of the workspace they last opened,
   * else their oldest: one indexed query per request. `stale`: the member's last activity is older than a minute
   * (or unknown), so the request should record it.
   */
  async membership(
    db: Queryable,
    userId: string,
    slug: string | null,
  ): Promise<(WorkspaceSummary & { stale: boolean }) | null> {
    const r = await db.query<Row & { stale: boolean }>(
      slug === null
        ? `select w.id, w.slug, w.name, m.role, ${STALE} from workspace_members m join workspaces w on w.id = m.workspace_id
             join users u on u.id = m.user_id
            where m.user_id = $1
            order by (w.id = u.current_workspace_id) desc, m.created_at, w.id limit 1`
        : `select w.id, w.slug, w.name, m.role, ${STALE} from workspaces w
             join workspace_members m on m.workspace_id = w.id and m.user_id = $1
            where w.slug = $2`,
      slug === null ? [userId] : [userId, slug],
    );
    return r.rows[0] ?? null;
  },

  async listForUser(db: Queryable, userId: string): Promise<WorkspaceSummary[]> {
    const r = await db.query<Row>(
      `select w.id, w.slug, w.name, m.role from workspace_members m join workspaces w on w.id = m.workspace_id
        where m.user_id = $1 order by lower(w.name), w.id`,
      [userId],
    );
    return r.rows;
  },

  /** The addresses of the workspace's owners and admins: who hears of a paused source or a refused token. */
  async managerEmails(db: Queryable, workspaceId: string): Promise<string[]> {
    const r = await db.query<{ email: string }>(
      `select u.email from workspace_members m join users u on u.id = m.user_id
        where m.workspace_id = $1 and m.role in ('owner', 'admin') order by m.created_at, u.id`,
      [workspaceId],
    );
    return r.rows.map((x) => x.email);
  },

  /** Answers false when another workspace has the slug (checked here, and by the unique index in a race). */
  async setSlug(db: Queryable, workspaceId: string, slug: string): Promise<boolean> {
    try {
      const r = await db.query(
        `update workspaces set slug = $2 where id = $1
           and not exists (select 1 from workspaces o where o.slug = $2 and o.id <> $1)`,
        [workspaceId, slug],
      );
      return r.rowCount > 0;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    }
  },

  /** The workspace's address segment, for links in mails (`/w/<slug>/…`). */
  async slugOf(db: Queryable, workspaceId: string): Promise<string | null> {
    const r = await db.query<{ slug: string }>('select slug from workspaces where id = $1', [workspaceId]);
    return r.rows[0]?.slug ?? null;
  },

  /** Records the member's activity now (the guard calls it at most once a minute per member). */
  async touchActive(db: Queryable, workspaceId: string, userId: string): Promise<void> {
    await db.query(
      'update workspace_members set last_active_at = now() where workspace_id = $1 and user_id = $2',
      [workspaceId, userId],
    );
  },

  async setCurrent(db: Queryable, userId: string, workspaceId: string): Promise<void> {
    await db.query('update users set current_workspace_id = $2 where id = $1', [userId, workspaceId]);
  },

  async rename(db: Queryable, workspaceId: string, name: string): Promise<void> {
    await db.query('update workspaces set name = $2 where id = $1', [workspaceId, name]);
  },

  /**
   * Deletes the workspaces and, through their foreign keys, everything they own. The ledger has none (migration
   * 0741), so its rows go here, in the caller's transaction.
   */
  async delete(db: Queryable, workspaceIds: string[]): Promise<void> {
    if (!workspaceIds.length) return;
    await db.query('delete from delivery_ledger where workspace_id = any($1::uuid[])', [workspaceIds]);
    await db.query('delete from workspaces where id = any($1::uuid[])', [workspaceIds]);
  },

  /**
   * For an account being deleted: the workspaces it alone owns, split by whether anyone else is a member
   * (those must be handed over or deleted first).
   */
  async soleOwnerships(
    db: Queryable,
    userId: string,
  ): Promise<{ id: string; name: string; shared: boolean }[]> {
    const r = await db.query<{ id: string; name: string; shared: boolean }>(
      `select w.id, w.name,
              exists (select 1 from workspace_members o where o.workspace_id = w.id and o.user_id <> $1) as shared
         from workspace_members m join workspaces w on w.id = m.workspace_id
        where m.user_id = $1 and m.role = 'owner'
          and not exists (select 1 from workspace_members o
                           where o.workspace_id = w.id and o.role = 'owner' and o.user_id <> $1)`,
      [userId],
    );
    return r.rows;
  },
};
