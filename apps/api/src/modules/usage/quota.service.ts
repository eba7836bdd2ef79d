import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { usageRepo, type UsageAction } from './usage.repo.ts';

/** Quotas count what an account did in the last 24 hours, not since midnight: no time zone, no burst at 00:00. */
export const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Per account and rolling day (security.md §2.9): bytes uploaded, and rows for each of validate, prepare, send. */
export interface Quotas {
  uploadBytes: number;
  rows: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const WHAT: Record<UsageAction, (limit: number) => string> = {
  upload: (n) =>
    n >= 1024 * 1024
      ? `${count(Math.round(n / 1024 / 1024))} MB of uploads`
      : `${count(Math.ceil(n / 1024))} KB of uploads`,
  validate: (n) => `${count(n)} rows validated`,
  prepare: (n) => `${count(n)} rows prepared`,
  send: (n) => `${count(n)} events sent`,
};

function inAbout(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 2) return 'a minute';
  return minutes < 90 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}

/** One request on a quota: `amount` more of `action` (bytes for uploads, else rows) by `workspaceId` at `now`. */
export interface QuotaCall {
  quotas: Quotas;
  workspaceId: string;
  action: UsageAction;
  amount: number;
  now: Date;
}

/**
 * Refuses (429, with when to try again) unless the call fits in what the account's last 24 hours left. Inside a
 * transaction it holds the account's row, so concurrent requests on any instance are judged one after another.
 */
export async function checkQuota(
  tx: Queryable,
  { quotas, workspaceId, action, amount, now }: QuotaCall,
): Promise<void> {
  const limit = action === 'upload' ? quotas.uploadBytes : quotas.rows;
  await usageRepo.lockUser(tx, workspaceId);
  const since = new Date(now.getTime() - QUOTA_WINDOW_MS);
  const used = await usageRepo.usedSince(tx, workspaceId, action, since);
  if (used + amount <= limit) return;
  if (amount > limit)
    throw new AppError('RATE_LIMITED', `This file alone is over the daily limit of ${WHAT[action](limit)}.`);
  const freed = await usageRepo.freedAfter(tx, workspaceId, action, since, used + amount - limit);
  const wait = freed ? freed.getTime() + QUOTA_WINDOW_MS - now.getTime() : QUOTA_WINDOW_MS;
  throw new AppError(
    'RATE_LIMITED',
    `Daily limit reached: at most ${WHAT[action](limit)} in 24 hours. Please try again in ${inAbout(wait)}.`,
    undefined,
    Math.ceil(wait / 1000),
  );
}

/** checkQuota, then counts the call; run it inside the transaction that does the work's first write. */
export async function takeQuota(tx: Queryable, call: QuotaCall): Promise<void> {
  await checkQuota(tx, call);
  await usageRepo.record(tx, call.workspaceId, call.action, call.amount, call.now);
}
