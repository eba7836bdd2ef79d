import type { Queryable } from '../../db/db.ts';

export interface SessionUserRow {
  token_hash: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  role: string;
  email_verified: boolean;
}

export const sessionsRepo = {
  async insert(db: Queryable, row: { tokenHash: string; userId: string; expiresAt: Date }) {
    await db.query('insert into sessions (token_hash, user_id, expires_at) values ($1, $2, $3)', [
      row.tokenHash,
      row.userId,
      row.expiresAt,
    ]);
  },
  async findWithUser(db: Queryable, tokenHash: string): Promise<SessionUserRow | undefined> {
    const r = await db.query<SessionUserRow>(
      `select s.token_hash, s.user_id, s.created_at, s.last_seen_at, s.expires_at,
              u.email, u.first_name, u.last_name, u.company, u.role, u.email_verified
         from sessions s join users u on u.id = s.user_id
        where s.token_hash = $1`,
      [tokenHash],
    );
    return r.rows[0];
  },
  async touch(db: Queryable, tokenHash: string, at: Date) {
    await db.query('update sessions set last_seen_at = $2 where token_hash = $1', [tokenHash, at]);
  },
  async delete(db: Queryable, tokenHash: string) {
    await db.query('delete from sessions where token_hash = $1', [tokenHash]);
  },
  async deleteForUser(db: Queryable, userId: string, exceptTokenHash?: string) {
    await db.query('delete from sessions where user_id = $1 and token_hash is distinct from $2', [
      userId,
      exceptTokenHash ?? null,
    ]);
  },
  async deleteExpired(db: Queryable, now: Date, idleCutoff: Date) {
    await db.query('delete from sessions where expires_at < $1 or last_seen_at < $2', [now, idleCutoff]);
  },
};
