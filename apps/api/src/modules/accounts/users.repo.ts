import type { Queryable } from '../../db/db.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  role: string;
  email_verified: boolean;
  password_hash: string;
}

export type UserWithHash = SessionUser & { passwordHash: string };

const toUser = (r: UserRow): UserWithHash => ({
  id: r.id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  company: r.company,
  role: r.role,
  emailVerified: r.email_verified,
  passwordHash: r.password_hash,
});

const COLUMNS = 'id, email, first_name, last_name, company, role, email_verified, password_hash';

export const usersRepo = {
  async findByEmail(db: Queryable, email: string): Promise<UserWithHash | undefined> {
    const r = await db.query<UserRow>(`select ${COLUMNS} from users where lower(email) = lower($1)`, [email]);
    return r.rows[0] && toUser(r.rows[0]);
  },
  async findById(db: Queryable, id: string): Promise<UserWithHash | undefined> {
    const r = await db.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id]);
    return r.rows[0] && toUser(r.rows[0]);
  },
  /** Inserts unless the email is taken; answers undefined when it is. */
  async insert(
    db: Queryable,
    u: {
      id: string;
      email: string;
      firstName: string;
      lastName: string;
      company: string;
      role: string;
      passwordHash: string;
    },
  ): Promise<UserWithHash | undefined> {
    const r = await db.query<UserRow>(
      `insert into users (id, email, first_name, last_name, company, role, password_hash)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict do nothing
       returning ${COLUMNS}`,
      [u.id, u.email, u.firstName, u.lastName, u.company, u.role, u.passwordHash],
    );
    return r.rows[0] && toUser(r.rows[0]);
  },
  async updateProfile(
    db: Queryable,
    id: string,
    p: { firstName: string; lastName: string; company: string; role: string },
  ): Promise<UserWithHash | undefined> {
    const r = await db.query<UserRow>(
      `update users set first_name = $2, last_name = $3, company = $4, role = $5, updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, p.firstName, p.lastName, p.company, p.role],
    );
    return r.rows[0] && toUser(r.rows[0]);
  },
  async setPasswordHash(db: Queryable, id: string, hash: string) {
    await db.query('update users set password_hash = $2, updated_at = now() where id = $1', [id, hash]);
  },
  async markVerified(db: Queryable, id: string) {
    await db.query('update users set email_verified = true, updated_at = now() where id = $1', [id]);
  },
  /**
   * Deletes the user row; its sessions, tokens and memberships go with it (on delete cascade). The workspaces it
   * owned are the caller's (accounts.service deleteAccount, in the same transaction). Login failures are keyed by
   * address and analytics outlive anonymous visits, so those are cleared here.
   */
  async delete(db: Queryable, id: string) {
    // Before the user row: its delete would set these user ids to null.
    await db.query('delete from analytics_events where user_id = $1', [id]);
    const r = await db.query<{ email: string }>('delete from users where id = $1 returning email', [id]);
    const email = r.rows[0]?.email;
    if (!email) return;
    await db.query('delete from login_failures where key = any($1)', [
      [`email:${email.toLowerCase()}`, `change:${id}`],
    ]);
  },
};

export const publicUser = ({ passwordHash: _omit, ...user }: UserWithHash): SessionUser => user;
