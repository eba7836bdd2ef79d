import type { Queryable } from '../../db/db.ts';

export type TokenPurpose = 'verify' | 'reset';

export const emailTokensRepo = {
  async insert(
    db: Queryable,
    t: { tokenHash: string; userId: string; purpose: TokenPurpose; expiresAt: Date },
  ) {
    await db.query(
      'insert into email_tokens (token_hash, user_id, purpose, expires_at) values ($1, $2, $3, $4)',
      [t.tokenHash, t.userId, t.purpose, t.expiresAt],
    );
  },
  /** Deletes and returns the token in one statement: a token works once, even under concurrent use. */
  async consume(
    db: Queryable,
    tokenHash: string,
    purpose: TokenPurpose,
  ): Promise<{ userId: string; expiresAt: Date } | undefined> {
    const r = await db.query<{ user_id: string; expires_at: Date }>(
      'delete from email_tokens where token_hash = $1 and purpose = $2 returning user_id, expires_at',
      [tokenHash, purpose],
    );
    const row = r.rows[0];
    return row && { userId: row.user_id, expiresAt: row.expires_at };
  },
  async deleteForUser(db: Queryable, userId: string, purpose: TokenPurpose) {
    await db.query('delete from email_tokens where user_id = $1 and purpose = $2', [userId, purpose]);
  },
  async deleteExpired(db: Queryable, now: Date) {
    await db.query('delete from email_tokens where expires_at < $1', [now]);
  },
};
