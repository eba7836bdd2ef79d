import { backoffDelayMs } from '@backsignal/core';
import { postEvents } from '../../integrations/meta-graph/events-client.ts';
import { metaBatchDuration, metaEvents } from '../../lib/metrics.ts';
import { classifyAnswer, EXHAUSTED, type AnswerStep } from './delivery.answer.ts';
import { deliveryRepo, type BatchError, type BatchRow } from './delivery.repo.ts';
import type { RunContext } from './delivery.run-context.ts';
import { tallyFixes } from './delivery.fix-tally.ts';
import { tallyMatches } from './delivery.match-tally.ts';
import type { Payload, Splitter } from './delivery.split.ts';

/**
 * Sends one claimed batch (a leaf: a whole batch or a part split off it) until it is settled: sent, failed, split,
 * or given back because the run stopped or the lease was lost. An outcome counts only once committed under the
 * lease. True when Meta took the leaf and that was committed. `recorded`: the leaf was recorded by this worker
 * just now, its first attempt counted under a fresh lease (ensureBatch), so that attempt is not begun again.
 */
export async function sendBatch(
  ctx: RunContext,
  splitter: Splitter,
  leaf: BatchRow,
  { events, data }: Payload,
  recorded = false,
): Promise<boolean> {
  const { db, token, o, run } = ctx;
  let begun = recorded;
  let attempts = leaf.attempts - (recorded ? 1 : 0);
  let last: Extract<AnswerStep, { error: BatchError }> | null = null;
  for (;;) {
    if (!(await ctx.stillRunning())) return release(ctx, leaf, begun);
    if (attempts >= o.backoff.maxAttempts) return failed(ctx, leaf, events.length, last?.error ?? EXHAUSTED);
    if (!(await ctx.waitForRun(leaf))) return false;
    if (ctx.stopped) return release(ctx, leaf, begun);
    // After a rate limit the run-level wait replaces the batch's own backoff.
    const delay =
      last?.step === 'retry' ? backoffDelayMs(attempts, last.retryAfterSeconds, o.random(), o.backoff) : 0;
    // The heartbeat renews the lease through the backoff and the request, so it need not cover them: a worker
    // killed mid-wait must not keep its batch for minutes (issue 21).
    if (!begun && !(await deliveryRepo.beginAttempt(db, leaf.id, token, o.leaseMs))) return false;
    begun = false;
    if (delay > 0) await o.sleep(delay);
    attempts++;
    await o.onPoint?.('before-send', leaf);
    const sentAt = o.now();
    const answer = classifyAnswer(
      await postEvents({
        fetch: o.fetch,
        graphUrl: o.graphUrl,
        apiVersion: o.apiVersion,
        pixelId: ctx.creds.pixelId,
        accessToken: ctx.creds.accessToken,
        data,
        testEventCode: run.test_event_code,
        timeoutMs: o.timeoutMs,
        nowMs: o.now,
      }),
    );
    metaBatchDuration.observe({ answer: answer.step }, (o.now() - sentAt) / 1000);
    await o.onPoint?.('after-answer', leaf);
    switch (answer.step) {
      case 'sent': {
        const committed = await deliveryRepo.commitSent(
          db,
          {
            batchId: leaf.id,
            token,
            eventsReceived: answer.eventsReceived,
            fbtraceId: answer.fbtraceId,
            tally: tallyMatches(events),
            fixed: tallyFixes(events),
          },
          {
            workspaceId: run.workspace_id,
            pixelId: run.pixel_id,
            runId: run.id,
            test: !!run.test_event_code,
            events: events.map((e) => ({ name: e.event_name, id: e.event_id })),
          },
        );
        if (committed) metaEvents.inc({ outcome: 'sent' }, events.length);
        await o.onPoint?.('after-commit', leaf);
        if (ctx.throttle.accepted()) await deliveryRepo.clearThrottle(db, run.id);
        return committed;
      }
      case 'throttled': {
        const at = o.now();
        ctx.throttle.update(
          await deliveryRepo.noteThrottle(db, run.id, {
            sent: new Date(sentAt),
            at: new Date(at),
            retryAfterMs: answer.retryAfterMs,
            baseMs: o.throttle.baseMs,
            maxWaitMs: o.throttle.maxWaitMs,
          }),
        );
        if (ctx.throttle.givenUp(at)) {
          // Refused for the whole give-up time: the batch fails with Meta's reason, as any batch out of attempts.
          return failed(ctx, leaf, events.length, answer.error);
        }
        await deliveryRepo.refundAttempt(db, leaf.id, token);
        attempts--;
        last = answer;
        continue;
      }
      case 'retry':
        last = answer;
        continue;
      case 'stop':
        await failed(ctx, leaf, events.length, answer.error);
        await ctx.stop(answer.reason, answer.raw);
        return false;
      case 'split':
        await splitter.refused(leaf, events, answer.badIndex, answer.error);
        return false;
    }
  }
}

/** Commits a leaf as failed, counting its events for /metrics once the commit is done. */
async function failed(ctx: RunContext, leaf: BatchRow, events: number, error: BatchError): Promise<false> {
  if (await deliveryRepo.commitFailed(ctx.db, leaf.id, ctx.token, error))
    metaEvents.inc({ outcome: 'failed' }, events);
  return false;
}

/** Gives a leaf back; `unsent`: its counted attempt (see `recorded`) was never made, so it is uncounted. */
async function release(ctx: RunContext, leaf: BatchRow, unsent: boolean): Promise<false> {
  await deliveryRepo.release(ctx.db, leaf.id, ctx.token, unsent);
  return false;
}
