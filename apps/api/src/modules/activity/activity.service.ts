import {
  ACTIVITY_CURSOR,
  ACTIVITY_KIND_LABELS,
  type ActivityEntry,
  type ActivityPage,
  type ActivityQuery,
  SCHEDULE_ACTOR,
} from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { activityRepo, type ActivityFilter, type ActivityInsert, type ActivityRow } from './activity.repo.ts';

export type { ActivityInsert } from './activity.repo.ts';

/** A member's sign-in to a workspace is recorded at most this often (decision 0106). */
export const SIGN_IN_EVERY_MS = 12 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Appends one entry to the workspace's log. Throws like any write: inside an action's transaction, call it with
 * the transaction's handle so the entry and the action commit together; elsewhere use a best-effort caller
 * (`logActivity` for a request), so the log never fails what it records.
 */
export async function recordActivity(db: Queryable, entry: ActivityInsert): Promise<void> {
  await activityRepo.insert(db, entry);
}

/**
 * What a source's run did, written by the run (no request): its actor is who asked for it ("Run now"), else the
 * schedule. Best effort like logActivity: a failed write is logged and never fails the run.
 */
export async function recordRunActivity(
  db: Queryable,
  e: Omit<ActivityInsert, 'actorLabel' | 'ip'>,
): Promise<void> {
  try {
    await activityRepo.insertFor(db, e);
  } catch (err) {
    console.error('activity entry not written', e.kind, e.workspaceId, err);
  }
}

/** A source's scheduled run, as the schedule's entry. */
export const scheduledRun = (workspaceId: string, sourceName: string): ActivityInsert => ({
  workspaceId,
  actorUserId: null,
  actorLabel: SCHEDULE_ACTOR,
  kind: 'source.run_started',
  subject: sourceName,
});

/** How a person is named in the log, kept as written: it still reads after the account is gone. */
export function actorLabel(u: { firstName: string; lastName?: string | null; email: string }): string {
  const name = `${u.firstName} ${u.lastName ?? ''}`.trim();
  return name ? `${name} <${u.email}>` : u.email;
}

/** A member's first request in a workspace after SIGN_IN_EVERY_MS; answers whether an entry was written. */
export function noteSignIn(
  db: Queryable,
  e: { workspaceId: string; userId: string; ip: string | null; now: Date },
): Promise<boolean> {
  return activityRepo.noteSignIn(db, { ...e, everyMs: SIGN_IN_EVERY_MS });
}

/** A day (YYYY-MM-DD, UTC) or an instant; a day as `to` runs to its end. */
function bound(s: string | undefined, end: boolean): Date | undefined {
  if (s === undefined) return undefined;
  const d = new Date(s);
  return end && s.length === 10 ? new Date(d.getTime() + DAY_MS) : end ? new Date(d.getTime() + 1) : d;
}

function filterOf(workspaceId: string, q: ActivityQuery, limit: number): ActivityFilter {
  const cursor = q.before ? ACTIVITY_CURSOR.exec(q.before) : null;
  return {
    workspaceId,
    person: q.person,
    kind: q.kind,
    from: bound(q.from, false),
    to: bound(q.to, true),
    before: cursor ? { at: new Date(cursor[1]!), id: cursor[2]! } : undefined,
    limit,
  };
}

const present = (r: ActivityRow): ActivityEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  actorUserId: r.actor_user_id,
  actorLabel: r.actor_label,
  kind: r.kind,
  subject: r.subject,
  details: r.details,
  ip: r.ip,
});

const cursorOf = (e: { at: string; id: string }) => `${e.at},${e.id}`;

/** One page, newest first; `next` reads the page after it. */
export async function listActivity(
  db: Queryable,
  workspaceId: string,
  q: ActivityQuery,
): Promise<ActivityPage> {
  const rows = await activityRepo.list(db, filterOf(workspaceId, q, q.limit + 1));
  const entries = rows.slice(0, q.limit).map(present);
  const last = entries[entries.length - 1];
  return { entries, next: rows.length > q.limit && last ? cursorOf(last) : null };
}

export const ACTIVITY_CSV_HEADER = ['Time (UTC)', 'Person', 'What', 'Subject', 'Details', 'IP address'];

/** Every entry the filters select, newest first, as CSV cells; read a page at a time. */
export async function* activityCsvRows(
  db: Queryable,
  workspaceId: string,
  q: ActivityQuery,
): AsyncGenerator<string[]> {
  let before = q.before;
  for (;;) {
    const page = await listActivity(db, workspaceId, { ...q, before, limit: 500 });
    for (const e of page.entries) {
      yield [
        e.at,
        e.actorLabel,
        ACTIVITY_KIND_LABELS[e.kind] ?? e.kind,
        e.subject ?? '',
        Object.entries(e.details)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('; '),
        e.ip ?? '',
      ];
    }
    if (!page.next) return;
    before = page.next;
  }
}

export const activityPeople = (db: Queryable, workspaceId: string) => activityRepo.people(db, workspaceId);
