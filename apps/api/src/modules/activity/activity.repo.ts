import { SCHEDULE_ACTOR, type ActivityDetails, type ActivityKind } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { jsonColumn } from '../../db/json-column.ts';
import { HELD_FIRST_HALF } from '../delivery/delivery-batches.repo.ts';

export interface ActivityInsert {
  workspaceId: string;
  /** Null for the schedule. */
  actorUserId: string | null;
  actorLabel: string;
  kind: ActivityKind;
  subject?: string | null;
  details?: ActivityDetails;
  ip?: string | null;
}

export interface ActivityRow {
  id: string;
  at: Date;
  actor_user_id: string | null;
  actor_label: string;
  kind: ActivityKind;
  subject: string | null;
  details: ActivityDetails;
  ip: string | null;
}

export interface ActivityFilter {
  workspaceId: string;
  person?: string;
  kind?: ActivityKind;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  before?: { at: Date; id: string };
  limit: number;
}

/** How a user is named in the log: the name as it is now, and the e-mail that tells two namesakes apart. */
const LABEL = `coalesce(nullif(btrim(u.first_name || ' ' || coalesce(u.last_name, '')), '') || ' <' || u.email || '>', u.email)`;

/** The workspace activity log (migration 0820): append-only; rows go only with their workspace or by age. */
export const activityRepo = {
  async insert(db: Queryable, e: ActivityInsert): Promise<void> {
    await db.query(
      `insert into workspace_activity (workspace_id, actor_user_id, actor_label, kind, subject, details, ip)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        e.workspaceId,
        e.actorUserId,
        e.actorLabel,
        e.kind,
        e.subject ?? null,
        JSON.stringify(e.details ?? {}),
        e.ip ?? null,
      ],
    );
  },

  /** An entry whose actor is a user named by id (labelled as they are now) or, for null, the schedule. */
  async insertFor(db: Queryable, e: Omit<ActivityInsert, 'actorLabel' | 'ip'>): Promise<void> {
    await db.query(
      `insert into workspace_activity (workspace_id, actor_user_id, actor_label, kind, subject, details)
       select $1, u.id, coalesce(${LABEL}, '${SCHEDULE_ACTOR}'), $3, $4, $5
         from (select 1) one left join users u on u.id = $2::uuid`,
      [e.workspaceId, e.actorUserId, e.kind, e.subject ?? null, JSON.stringify(e.details ?? {})],
    );
  },

  /**
   * A sign-in to the workspace, at most once per member per `every`: the member's signed_in_at moves and the
   * entry is written in one statement, so two requests at once write one entry. Answers whether it wrote.
   */
  async noteSignIn(
    db: Queryable,
    e: { workspaceId: string; userId: string; ip: string | null; now: Date; everyMs: number },
  ): Promise<boolean> {
    const r = await db.query(
      `with touched as (
         update workspace_members set signed_in_at = $3
          where workspace_id = $1 and user_id = $2
            and (signed_in_at is null or signed_in_at <= $3::timestamptz - make_interval(secs => $5::float8 / 1000))
          returning workspace_id, user_id)
       insert into workspace_activity (workspace_id, at, actor_user_id, actor_label, kind, ip)
       select t.workspace_id, date_trunc('milliseconds', $3::timestamptz), t.user_id, ${LABEL}, 'workspace.signed_in', $4
         from touched t join users u on u.id = t.user_id`,
      [e.workspaceId, e.userId, e.now, e.ip, e.everyMs],
    );
    return r.rowCount > 0;
  },

  /**
   * "Send finished", written by the delivery engine in the statement that ends the run (one entry per run,
   * whichever worker ends it): an insert reading the ended run from the statement's `ended` CTE. The actor is
   * who started the send, or the schedule for a source's run; the subject the file's name; the details the
   * pixel and the events sent and failed, counted as the summary counts them.
   */
  runFinishedInsert(): string {
    return `insert into workspace_activity (workspace_id, actor_user_id, actor_label, kind, subject, details)
      select d.workspace_id, d.started_by, coalesce((select ${LABEL} from users u where u.id = d.started_by), '${SCHEDULE_ACTOR}'),
             'send.finished', (select up.file_name from uploads up where up.id = d.upload_id),
             jsonb_build_object('pixelId', d.pixel_id, 'status', d.status,
               'sent', coalesce((select sum(b.event_count) from send_batches b where b.run_id = d.id and b.status = 'sent'), 0),
               'failed', coalesce((select sum(f.event_count) from send_batches f where f.run_id = d.id and f.status = 'failed' and not (${HELD_FIRST_HALF})), 0))
        from ended d`;
  },

  async list(db: Queryable, f: ActivityFilter): Promise<ActivityRow[]> {
    const where = ['workspace_id = $1'];
    const params: unknown[] = [f.workspaceId];
    const add = (sql: (n: string) => string, v: unknown) => {
      params.push(v);
      where.push(sql(`$${params.length}`));
    };
    if (f.person) add((n) => `actor_user_id = ${n}`, f.person);
    if (f.kind) add((n) => `kind = ${n}`, f.kind);
    if (f.from) add((n) => `at >= ${n}`, f.from);
    if (f.to) add((n) => `at < ${n}`, f.to);
    if (f.before) {
      params.push(f.before.at, f.before.id);
      where.push(`(at, id) < ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
    }
    params.push(f.limit);
    const r = await db.query<ActivityRow>(
      `select id::text as id, at, actor_user_id, actor_label, kind, subject, details, ip from workspace_activity
        where ${where.join(' and ')} order by at desc, id desc limit $${params.length}`,
      params,
    );
    return r.rows.map((row) => ({
      ...row,
      at: new Date(row.at),
      details: jsonColumn<ActivityDetails>(row.details),
    }));
  },

  async people(db: Queryable, workspaceId: string): Promise<{ userId: string; label: string }[]> {
    const r = await db.query<{ user_id: string; label: string }>(
      `select actor_user_id as user_id, actor_label as label from (
         select distinct on (actor_user_id) actor_user_id, actor_label from workspace_activity
          where workspace_id = $1 and actor_user_id is not null order by actor_user_id, at desc, id desc) p
        order by lower(actor_label)`,
      [workspaceId],
    );
    return r.rows.map((x) => ({ userId: x.user_id, label: x.label }));
  },

  async deleteBefore(db: Queryable, before: Date): Promise<number> {
    const r = await db.query('delete from workspace_activity where at < $1', [before]);
    return r.rowCount ?? 0;
  },
};
