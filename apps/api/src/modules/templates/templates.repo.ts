import type { Queryable } from '../../db/db.ts';
import { jsonColumn } from '../../db/json-column.ts';

export interface TemplateRow {
  id: string;
  name: string;
  mappings: Record<string, string>;
  hardcoded: Record<string, string>;
}
const toRow = (r: Record<string, unknown>): TemplateRow => ({
  id: r.id as string,
  name: r.name as string,
  mappings: jsonColumn(r.mappings),
  hardcoded: jsonColumn(r.hardcoded),
});
const isUuid = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

export const templatesRepo = {
  async list(db: Queryable, workspaceId: string): Promise<{ id: string; name: string }[]> {
    const r = await db.query<{ id: string; name: string }>(
      'select id, name from mapping_templates where workspace_id = $1 order by lower(name)',
      [workspaceId],
    );
    return r.rows;
  },
  async find(db: Queryable, workspaceId: string, id: string): Promise<TemplateRow | undefined> {
    if (!isUuid(id)) return undefined;
    const r = await db.query(
      'select id, name, mappings, hardcoded from mapping_templates where id = $1 and workspace_id = $2',
      [id, workspaceId],
    );
    return r.rows[0] ? toRow(r.rows[0]) : undefined;
  },
  /** Answers false when the user already has a template of that name. */
  async insert(
    db: Queryable,
    t: { id: string; workspaceId: string; name: string; mappings: object; hardcoded: object },
  ): Promise<boolean> {
    const r = await db.query(
      `insert into mapping_templates (id, workspace_id, name, mappings, hardcoded) values ($1, $2, $3, $4, $5) on conflict do nothing`,
      [t.id, t.workspaceId, t.name, JSON.stringify(t.mappings), JSON.stringify(t.hardcoded)],
    );
    return r.rowCount > 0;
  },
  async updateContent(
    db: Queryable,
    workspaceId: string,
    id: string,
    mappings: object,
    hardcoded: object,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await db.query(
      'update mapping_templates set mappings = $3, hardcoded = $4, updated_at = now() where id = $1 and workspace_id = $2',
      [id, workspaceId, JSON.stringify(mappings), JSON.stringify(hardcoded)],
    );
    return r.rowCount > 0;
  },
  async rename(
    db: Queryable,
    workspaceId: string,
    id: string,
    name: string,
  ): Promise<'ok' | 'missing' | 'taken'> {
    if (!isUuid(id)) return 'missing';
    const taken = await db.query(
      'select 1 from mapping_templates where workspace_id = $1 and lower(name) = lower($2) and id <> $3',
      [workspaceId, name, id],
    );
    if (taken.rows.length) return 'taken';
    const r = await db.query(
      'update mapping_templates set name = $3, updated_at = now() where id = $1 and workspace_id = $2',
      [id, workspaceId, name],
    );
    return r.rowCount > 0 ? 'ok' : 'missing';
  },
  async delete(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (
      (await db.query('delete from mapping_templates where id = $1 and workspace_id = $2', [id, workspaceId]))
        .rowCount > 0
    );
  },
};
