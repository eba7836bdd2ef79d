import type { Queryable } from '../../db/db.ts';

export interface IdempotencyRow {
  fingerprint: string;
  status: number | null;
  body: string | null;
  content_type: string | null;
}

/** Idempotency-Key records of v1 POSTs (migration 0840); older than `since` they count as gone. */
export const idempotencyRepo = {
  /**
   * Claims the key for a call about to run: true when this call is the first within the window (a row older than
   * `since`, or a call still marked running since before `runningSince`, is replaced), false when a row holds it.
   */
  async claim(
    db: Queryable,
    keyId: string,
    idemKey: string,
    fingerprint: string,
    now: Date,
    since: Date,
    runningSince: Date,
  ): Promise<boolean> {
    const r = await db.query(
      `insert into api_idempotency (key_id, idem_key, fingerprint, created_at) values ($1, $2, $3, $4)
       on conflict (key_id, idem_key) do update
         set fingerprint = excluded.fingerprint, status = null, body = null, content_type = null,
             created_at = excluded.created_at
         where api_idempotency.created_at < $5 or (api_idempotency.status is null and api_idempotency.created_at < $6)`,
      [keyId, idemKey, fingerprint, now, since, runningSince],
    );
    return r.rowCount > 0;
  },

  async find(db: Queryable, keyId: string, idemKey: string): Promise<IdempotencyRow | null> {
    const r = await db.query<IdempotencyRow>(
      'select fingerprint, status, body, content_type from api_idempotency where key_id = $1 and idem_key = $2',
      [keyId, idemKey],
    );
    return r.rows[0] ?? null;
  },

  async complete(
    db: Queryable,
    keyId: string,
    idemKey: string,
    answer: { status: number; body: string; contentType: string | null },
  ): Promise<void> {
    await db.query(
      `update api_idempotency set status = $3, body = $4, content_type = $5
        where key_id = $1 and idem_key = $2 and status is null`,
      [keyId, idemKey, answer.status, answer.body, answer.contentType],
    );
  },

  /** Frees a key whose call failed on our side, so a retry runs it again. */
  async release(db: Queryable, keyId: string, idemKey: string): Promise<void> {
    await db.query('delete from api_idempotency where key_id = $1 and idem_key = $2 and status is null', [
      keyId,
      idemKey,
    ]);
  },

  async deleteBefore(db: Queryable, cutoff: Date): Promise<number> {
    const r = await db.query('delete from api_idempotency where created_at < $1', [cutoff]);
    return r.rowCount;
  },
};
