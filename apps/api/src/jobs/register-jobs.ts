import type PgBoss from 'pg-boss';
import type { ResolvedDeps } from '../deps.ts';
import { registerHousekeepingJob } from './housekeeping.job.ts';
import { registerSendRunJob } from './send-run.job.ts';
import { startSourceScheduler } from './source-scheduler.job.ts';
import { startWebhookDispatcher } from './webhook-dispatcher.job.ts';
import { jobDeps, startUploadJobSweeper } from '../modules/files/upload-jobs.service.ts';

/** Every background job handler, registered on a queue. Run by `npm start` and by `npm run worker`. */
export async function registerJobs(boss: PgBoss, deps: ResolvedDeps): Promise<void> {
  // Job modules register here, one line each.
  await registerSendRunJob(boss, deps);
  await registerHousekeepingJob(boss, deps);
  startSourceScheduler(boss, deps);
  startWebhookDispatcher(boss, deps);
  boss.once('stopped', startUploadJobSweeper(jobDeps(deps, console)));
}
