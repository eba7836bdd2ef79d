import type { Queryable } from '../../db/db.ts';
import type { SealedToken } from './token-crypto.ts';
import { outboxInsert } from '../webhooks/webhook-outbox.repo.ts';

export interface PixelRow {
  id: string;
  workspaceId: string;
  name: string;
  pixelId: string;
  sealed: SealedToken;
  last4: string;
  status: 'active' | 'reconnect_needed';
}

const buf = (v: unknown) => Buffer.from(v as Uint8Array);
const toRow = (r: Record<string, unknown>): PixelRow => ({
  id: r.id as string,
  workspaceId: r.workspace_id as string,
  name: r.name as string,
  pixelId: r.pixel_id as string,
  sealed: {
    ciphertext: buf(r.token_ciphertext),
    iv: buf(r.token_iv),
    tag: buf(r.token_tag),
    keyVersion: Number(r.key_version),
  },
  last4: r.token_last4 as string,
  status: r.status as PixelRow['status'],
});
const COLS =
  'id, workspace_id, name, pixel_id, token_ciphertext, token_iv, token_tag, key_version, token_last4, status';
const isUuid = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

export const pixelsRepo = {
  async list(db: Queryable, workspaceId: string): Promise<PixelRow[]> {
    return (
      await db.query(`select ${COLS} from pixel_accounts where workspace_id = $1 order by created_at, id`, [
        workspaceId,
      ])
    ).rows.map(toRow);
  },
  async find(db: Queryable, workspaceId: string, id: string): Promise<PixelRow | undefined> {
    if (!isUuid(id)) return undefined;
    const r = await db.query(`select ${COLS} from pixel_accounts where id = $1 and workspace_id = $2`, [
      id,
      workspaceId,
    ]);
    return r.rows[0] ? toRow(r.rows[0]) : undefined;
  },
  async insert(
    db: Queryable,
    p: { id: string; workspaceId: string; name: string; pixelId: string; sealed: SealedToken; last4: string },
  ) {
    await db.query(
      `insert into pixel_accounts (id, workspace_id, name, pixel_id, token_ciphertext, token_iv, token_tag, key_version, token_last4)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        p.id,
        p.workspaceId,
        p.name,
        p.pixelId,
        p.sealed.ciphertext,
        p.sealed.iv,
        p.sealed.tag,
        p.sealed.keyVersion,
        p.last4,
      ],
    );
  },
  async update(
    db: Queryable,
    workspaceId: string,
    id: string,
    p: { name: string; pixelId: string; sealed: SealedToken; last4: string; status: string },
  ) {
    await db.query(
      `update pixel_accounts set name = $3, pixel_id = $4, token_ciphertext = $5, token_iv = $6, token_tag = $7, key_version = $8,
         token_last4 = $9, status = $10, updated_at = now() where id = $1 and workspace_id = $2`,
      [
        id,
        workspaceId,
        p.name,
        p.pixelId,
        p.sealed.ciphertext,
        p.sealed.iv,
        p.sealed.tag,
        p.sealed.keyVersion,
        p.last4,
        p.status,
      ],
    );
  },
  /** Remembers a connection test's outcome (see deliveryRepo.lastGoodAccount). */
  async recordTest(db: Queryable, id: string, ok: boolean) {
    await db.query('update pixel_accounts set last_test_ok = $2, last_test_at = now() where id = $1', [
      id,
      ok,
    ]);
  },
  async setStatus(db: Queryable, id: string, status: PixelRow['status']) {
    await db.query('update pixel_accounts set status = $2, updated_at = now() where id = $1', [id, status]);
  },
  /**
   * Meta refused the account's token: "reconnect needed", and the pixel.token_refused webhook event in the same
   * statement, once (an account already marked emits nothing again).
   */
  async markTokenRefused(db: Queryable, id: string) {
    await db.query(
      `with refused as (update pixel_accounts set status = 'reconnect_needed', updated_at = now()
         where id = $1 and status <> 'reconnect_needed' returning id, workspace_id, pixel_id)
       ${outboxInsert(`select r.workspace_id, 'pixel.token_refused',
         jsonb_build_object('pixelAccountId', r.id, 'pixelId', r.pixel_id) from refused r`)}`,
      [id],
    );
  },
  async delete(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (
      (await db.query('delete from pixel_accounts where id = $1 and workspace_id = $2', [id, workspaceId]))
        .rowCount > 0
    );
  },
};
