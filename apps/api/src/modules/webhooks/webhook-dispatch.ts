import { randomUUID } from 'node:crypto';
import type { ResolvedDeps } from '../../deps.ts';
import { openToken } from '../pixels/token-crypto.ts';
import { sourceAddressRule } from '../sources/ssrf.ts';
import { workspacesRepo } from '../workspaces/workspaces.repo.ts';
import { postWebhook, type PostOutcome } from './webhook-post.ts';
import { signatureHeader } from './webhook-signature.ts';
import { endpointDisabledMail } from './webhooks.mails.ts';
import { webhooksRepo, type DeliveryRow, type EndpointRow } from './webhooks.repo.ts';
import { secretAad } from './webhook-secret.ts';

const HOUR_MS = 3_600_000;
/** A message is retried for this long after it was queued; then it is given up (decision 0117). */
export const RETRY_WINDOW_MS = 24 * HOUR_MS;
/** An endpoint whose every attempt failed for this long is disabled and its managers mailed. */
export const DISABLE_AFTER_MS = 72 * HOUR_MS;
export const DISABLED_REASON = 'Disabled by Backsignal: every delivery failed for three days.';

export interface DispatchOptions {
  /** Per attempt: connecting, the answer's status and its first kilobyte. */
  timeoutMs: number;
  /** How long a claim holds; longer than an attempt, so a live worker's claim never lapses mid-attempt. */
  leaseMs: number;
  /** Deliveries claimed at once by one worker, and attempted side by side. */
  batch: number;
  random: () => number;
}
export const DISPATCH_DEFAULTS: DispatchOptions = {
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batch: 8,
  random: Math.random,
};

export type DispatchDeps = Pick<ResolvedDeps, 'db' | 'config' | 'mailer' | 'now'>;

/**
 * When to try again after `attempts` failed attempts: 30 s doubling each time up to 4 hours, each delay drawn
 * within ±25 % so endpoints that failed together do not all come back together. Null once that time is past the
 * message's 24 hours: it is given up.
 */
export function nextAttemptAt(
  attempts: number,
  createdAt: Date,
  now: Date,
  random: () => number,
): Date | null {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 4 * HOUR_MS);
  const at = now.getTime() + Math.round(base * (0.75 + random() * 0.5));
  return at > createdAt.getTime() + RETRY_WINDOW_MS ? null : new Date(at);
}

/** The message's body, built the same way on every attempt (jsonb keeps its keys in one order). */
export const messageBody = (d: DeliveryRow) =>
  JSON.stringify({
    type: d.eventType,
    timestamp: d.occurredAt.toISOString(),
    data: { workspaceId: d.workspaceId, ...d.data },
  });

/** The secrets a message is signed with now: the current one, and the one before a rotation while it lasts. */
function secretsOf(deps: DispatchDeps, e: EndpointRow, now: Date): string[] {
  const aad = secretAad(e.workspaceId, e.id);
  const current = openToken(deps.config.tokenKeys, e.sealed, aad);
  if (!e.previous || e.previous.until <= now) return [current];
  return [current, openToken(deps.config.tokenKeys, e.previous.sealed, aad)];
}

/** One attempt at one claimed delivery, its outcome written under the claim. */
async function attempt(
  deps: DispatchDeps,
  o: DispatchOptions,
  d: DeliveryRow,
  e: EndpointRow,
  token: string,
) {
  const started = deps.now();
  const body = messageBody(d);
  let outcome: PostOutcome;
  try {
    const timestamp = Math.floor(started.getTime() / 1000);
    const headers = {
      'webhook-id': d.messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secretsOf(deps, e, started), d.messageId, timestamp, body),
    };
    outcome = await postWebhook(e.url, headers, body, {
      timeoutMs: o.timeoutMs,
      isBlocked: sourceAddressRule(deps.config.sourcesAllowNetworks),
    });
  } catch {
    // The secret no longer decrypts (its key was dropped): nothing is sent unsigned.
    outcome = {
      status: null,
      durationMs: 0,
      responseBody: null,
      error: 'The signing secret can no longer be read: rotate it.',
    };
  }
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  if (ok) {
    await webhooksRepo.settle(deps.db, d.id, token, started, outcome, { status: 'succeeded', next: null });
    await webhooksRepo.endpointSucceeded(deps.db, e.id);
    return;
  }
  if (outcome.status !== null && outcome.status >= 300 && outcome.status < 400 && !outcome.error)
    outcome = { ...outcome, error: 'Redirects are not followed: use the address the receiver redirects to.' };
  const next = nextAttemptAt(d.attempts + 1, d.createdAt, started, o.random);
  await webhooksRepo.settle(deps.db, d.id, token, started, outcome, {
    status: next ? 'pending' : 'failed',
    next,
  });
  const disabled = await webhooksRepo.endpointFailed(
    deps.db,
    e.id,
    started,
    new Date(started.getTime() - DISABLE_AFTER_MS),
    DISABLED_REASON,
  );
  if (disabled) {
    const link = `${deps.config.appUrl}/settings/webhooks`;
    for (const to of await workspacesRepo.managerEmails(deps.db, disabled.workspaceId))
      await deps.mailer.send(endpointDisabledMail(to, disabled.url, link));
  }
}

/**
 * Claims due deliveries (FOR UPDATE SKIP LOCKED, under a lease) and attempts them side by side, until none is
 * due. Several workers may run it at once. Answers how many attempts it made.
 */
export async function dispatchDue(deps: DispatchDeps, opts: Partial<DispatchOptions> = {}): Promise<number> {
  const o = { ...DISPATCH_DEFAULTS, ...opts };
  let made = 0;
  for (;;) {
    const now = deps.now();
    const token = randomUUID();
    const claimed = await webhooksRepo.claimDue(
      deps.db,
      now,
      new Date(now.getTime() + o.leaseMs),
      token,
      o.batch,
    );
    if (!claimed.length) return made;
    await Promise.all(claimed.map((c) => attempt(deps, o, c.delivery, c.endpoint, token)));
    made += claimed.length;
  }
}
