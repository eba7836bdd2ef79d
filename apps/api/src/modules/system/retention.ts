import type { Queryable } from '../../db/db.ts';
import { analyticsRepo } from '../forms/analytics.repo.ts';
import { retentionRepo } from './retention.repo.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import { apiKeysRepo } from '../api-keys/api-keys.repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a delivery-ledger entry can still prevent a duplicate (ADR 0071): Meta refuses an event whose
 * event_time is more than 62 days old (7 for most action sources), so an event delivered longer ago than that
 * can never be accepted again and its entry protects nothing. One day of margin for clock skew.
 */
export const LEDGER_KEEP_DAYS = 63;

export interface RetentionPolicy {
  retentionDays: number;
  analyticsRetentionDays: number;
}

/**
 * The Terms' promise (data kept up to one year) as a job: uploads with their stored bytes, runs with their
 * batches and failed-row data, source runs (with their skipped rows), public form submissions, workspace activity
 * entries, ended invitations, revoked API keys (with their last address) and the names of files a source processed that no listing has shown for
 * RETENTION_DAYS go; only the ledger entries deduplication needs stay, and only for LEDGER_KEEP_DAYS. Anonymous
 * analytics go after ANALYTICS_RETENTION_DAYS. Accounts, workspaces, pixel accounts and templates stay until
 * someone deletes them.
 */
export async function applyRetention(db: Queryable, now: Date, policy: RetentionPolicy) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const cutoff = ago(policy.retentionDays);
  const sourceRuns = await retentionRepo.deleteSourceRuns(db, cutoff);
  const runs = await retentionRepo.deleteRuns(db, cutoff);
  const uploads = await retentionRepo.deleteUploads(db, cutoff);
  const ledger = await retentionRepo.deleteLedger(db, ago(LEDGER_KEEP_DAYS));
  const submissions = await retentionRepo.deleteSubmissions(db, cutoff);
  const seenItems = await retentionRepo.deleteSeenItems(db, cutoff);
  const activity = await activityRepo.deleteBefore(db, cutoff);
  const invitations = await retentionRepo.deleteEndedInvitations(db, cutoff);
  const revokedKeys = await apiKeysRepo.deleteRevokedBefore(db, cutoff);
  const analytics = await analyticsRepo.prune(db, ago(policy.analyticsRetentionDays), ago(1));
  return {
    sourceRuns,
    runs,
    uploads,
    ledger,
    submissions,
    seenItems,
    activity,
    invitations,
    revokedKeys,
    analytics,
  };
}
