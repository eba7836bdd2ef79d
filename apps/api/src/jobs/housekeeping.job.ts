import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../deps.ts';
import { pruneExpired } from '../modules/accounts/housekeeping.ts';
import { applyRetention } from '../modules/system/retention.ts';
import { sweepTusUploads, tusDirectory } from '../modules/files/tus-uploads.ts';

export const HOUSEKEEPING_JOB = 'housekeeping';

/** Every 30 minutes, in whichever worker pg-boss hands the scheduled job to (one at a time). */
export async function registerHousekeepingJob(
  boss: PgBoss,
  deps: Pick<ResolvedDeps, 'db' | 'now' | 'config'>,
): Promise<void> {
  await boss.createQueue(HOUSEKEEPING_JOB, { name: HOUSEKEEPING_JOB, policy: 'singleton', retryLimit: 1 });
  await boss.schedule(HOUSEKEEPING_JOB, '*/30 * * * *');
  await boss.work(HOUSEKEEPING_JOB, async () => {
    const now = deps.now();
    await pruneExpired(deps.db, now);
    await applyRetention(deps.db, now, deps.config);
    await sweepTusUploads(tusDirectory(deps.config.dataDir), now);
  });
}
