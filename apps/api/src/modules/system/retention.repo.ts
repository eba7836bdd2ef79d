import type { Queryable } from '../../db/db.ts';

export const retentionRepo = {
  /** Finished runs (and, by cascade, their batches and failed-row errors) last touched before `before`. */
  async deleteRuns(db: Queryable, before: Date): Promise<number> {
    const r = await db.query(
      `delete from send_runs where status <> 'running' and coalesce(finished_at, updated_at, created_at) < $1`,
      [before],
    );
    return r.rowCount ?? 0;
  },
  /**
   * Uploads (and, by cascade, their stored chunks) last changed before `before` that no kept run still reads;
   * prepared events are derived from the chunks, so they go with them.
   */
  async deleteUploads(db: Queryable, before: Date): Promise<number> {
    const r = await db.query(
      `delete from uploads u where u.updated_at < $1
          and not exists (select 1 from send_runs r where r.upload_id = u.id)`,
      [before],
    );
    return r.rowCount ?? 0;
  },
  /**
   * Finished source runs started before `before`: they keep skipped rows with customer data and Meta's answers.
   * Run first, so the uploads and send runs they point at are no longer held by them.
   */
  async deleteSourceRuns(db: Queryable, before: Date): Promise<number> {
    const r = await db.query(`delete from source_runs where status <> 'running' and started_at < $1`, [
      before,
    ]);
    return r.rowCount ?? 0;
  },
  /** Files a source processed that no listing has shown since `before` (gone from the server). */
  async deleteSeenItems(db: Queryable, before: Date): Promise<number> {
    const r = await db.query('delete from source_seen where seen_at < $1', [before]);
    return r.rowCount ?? 0;
  },
  /** Contact messages, waitlist sign-ups, audit requests (names, e-mails, messages) received before `before`. */
  /**
   * Invitations that ended (accepted, revoked or expired) before `before`: the invitee's address is no longer
   * needed once the link can do nothing. Pending ones stay until they expire.
   */
  async deleteEndedInvitations(db: Queryable, before: Date): Promise<number> {
    const r = await db.query(
      'delete from workspace_invitations where coalesce(accepted_at, revoked_at, expires_at) < $1',
      [before],
    );
    return r.rowCount ?? 0;
  },
  async deleteSubmissions(db: Queryable, before: Date): Promise<number> {
    const r = await db.query('delete from public_submissions where created_at < $1', [before]);
    return r.rowCount ?? 0;
  },
  /** Ledger entries delivered before `before`: past the window in which they can still stop a duplicate. */
  async deleteLedger(db: Queryable, before: Date): Promise<number> {
    const r = await db.query('delete from delivery_ledger where delivered_at < $1', [before]);
    return r.rowCount ?? 0;
  },
};
