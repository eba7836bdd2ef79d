import type { Queryable } from '../../db/db.ts';

export type SubmissionKind = 'contact' | 'automation_waitlist' | 'audit' | 'lead_ai_waitlist';

export const formsRepo = {
  async insert(
    db: Queryable,
    s: {
      id: string;
      kind: SubmissionKind;
      userId: string | null;
      email: string;
      ip: string;
      payload: object;
    },
  ) {
    await db.query(
      'insert into public_submissions (id, kind, user_id, email, ip, payload) values ($1, $2, $3, $4, $5, $6)',
      [s.id, s.kind, s.userId, s.email, s.ip, JSON.stringify(s.payload)],
    );
  },
  async recentCounts(
    db: Queryable,
    ip: string,
    email: string,
    since: Date,
  ): Promise<{ byIp: number; byEmail: number }> {
    const r = await db.query<{ by_ip: number; by_email: number }>(
      `select count(*) filter (where ip = $1)::int as by_ip, count(*) filter (where lower(email) = lower($2))::int as by_email
         from public_submissions where created_at > $3 and (ip = $1 or lower(email) = lower($2))`,
      [ip, email, since],
    );
    return { byIp: r.rows[0]!.by_ip, byEmail: r.rows[0]!.by_email };
  },
};
