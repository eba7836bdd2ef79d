import { randomUUID } from 'node:crypto';
import { nextRunAt } from '@backsignal/core';
import type { Db } from '../../db/db.ts';
import { executeRun, type RunnerDeps } from './source-run.ts';
import { sourcesRepo, type SourceRow } from './sources.repo.ts';
import { recordActivity, scheduledRun } from '../activity/activity.service.ts';

/** A run whose worker has not beaten for this long died with it: closed so the source can run again. */
export const RUN_STALE_MS = 10 * 60_000;
export const INTERRUPTED = 'This run was interrupted (the server restarted); the next run will try again.';

export interface ClaimedRun {
  runId: string;
  source: SourceRow;
  trigger: 'schedule' | 'manual';
  dueAt: Date | null;
}

/**
 * Claims due sources under FOR UPDATE SKIP LOCKED: several workers ticking at once each get different
 * sources, and the unique index on running runs makes a second run of one source impossible. Missed runs
 * (the server was down) run once, and the next due time is computed from now, not from the missed one.
 */
export async function claimDueRuns(db: Db, now: Date, limit = 10): Promise<ClaimedRun[]> {
  return db.transaction(async (tx) => {
    await sourcesRepo.lockClaims(tx);
    const due = await sourcesRepo.claimDue(tx, now, limit);
    const claimed: ClaimedRun[] = [];
    for (const s of due) {
      const runId = randomUUID();
      await sourcesRepo.createRun(tx, {
        id: runId,
        sourceId: s.id,
        workspaceId: s.workspaceId,
        trigger: s.trigger,
        dueAt: s.dueAt,
        now,
      });
      const scheduled = s.status === 'active' && s.nextRunAt !== null && s.nextRunAt <= now;
      const next = scheduled ? new Date(nextRunAt(s.schedule, s.timeZone, now.getTime())) : null;
      await sourcesRepo.advance(tx, s.id, next, s.trigger === 'manual');
      // "Run now" is logged with the person who asked; a scheduled run with the schedule, in this transaction.
      if (s.trigger === 'schedule') await recordActivity(tx, scheduledRun(s.workspaceId, s.name));
      claimed.push({ runId, source: s, trigger: s.trigger, dueAt: s.dueAt });
    }
    return claimed;
  });
}

/**
 * One scheduler pass: close runs of crashed workers, then `concurrency` loops each claim one due source at a
 * time and run it, until nothing is due. Claiming one at a time keeps a claimed run from waiting behind
 * others (and being taken for a crashed one). Answers the runs it did.
 */
export async function tick(
  deps: RunnerDeps,
  opts: { concurrency?: number; onStart?: (r: ClaimedRun, at: Date) => void } = {},
) {
  await sourcesRepo.failStaleRuns(deps.db, RUN_STALE_MS, INTERRUPTED);
  const results: { runId: string; sourceId: string; status: string }[] = [];
  const loop = async () => {
    for (;;) {
      const [c] = await claimDueRuns(deps.db, deps.now(), 1);
      if (!c) return;
      opts.onStart?.(c, new Date());
      results.push({
        runId: c.runId,
        sourceId: c.source.id,
        status: await executeRun(deps, c.source, c.runId),
      });
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 2 }, loop));
  return results;
}
