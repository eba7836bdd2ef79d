import type { Queryable } from '../../db/db.ts';
import { SESSION_IDLE_MS } from '../sessions/sessions.service.ts';
import { sessionsRepo } from '../sessions/sessions.repo.ts';
import { LOGIN_FAILURES_KEPT_MS } from './accounts.service.ts';
import { emailTokensRepo } from './email-tokens.repo.ts';
import { loginThrottleRepo } from './login-throttle.repo.ts';
import { QUOTA_WINDOW_MS } from '../usage/quota.service.ts';
import { usageRepo } from '../usage/usage.repo.ts';
import { membersRepo } from '../workspaces/members.repo.ts';
import { INVITATION_MAIL_WINDOW_MS } from '../workspaces/members.service.ts';
import { idempotencyRepo } from '../api-keys/idempotency.repo.ts';
import { IDEMPOTENCY_KEPT_MS } from '../../plugins/idempotency.ts';

/**
 * Deletes what no longer protects anyone: expired sessions and links, and login failures and usage older than
 * their windows, and Idempotency-Key answers older than 24 hours. Expired rows are already refused when read; this keeps the tables (and what a leaked
 * backup would hold) small.
 */
export async function pruneExpired(db: Queryable, now: Date): Promise<void> {
  await sessionsRepo.deleteExpired(db, now, new Date(now.getTime() - SESSION_IDLE_MS));
  await emailTokensRepo.deleteExpired(db, now);
  await loginThrottleRepo.prune(db, new Date(now.getTime() - LOGIN_FAILURES_KEPT_MS));
  await usageRepo.prune(db, new Date(now.getTime() - QUOTA_WINDOW_MS));
  await membersRepo.pruneMails(db, new Date(now.getTime() - INVITATION_MAIL_WINDOW_MS));
  await idempotencyRepo.deleteBefore(db, new Date(now.getTime() - IDEMPOTENCY_KEPT_MS));
}
