import type { FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import type { Agent } from '../../../test/agent.ts';
import type { TestContext } from '../../../test/context.ts';
import { appDeliverySource } from '../delivery/delivery.source.ts';
import { tick } from './scheduler.ts';
import type { RunnerDeps } from './source-run.ts';

export const TOKEN = 'EAAB-good-token-123456';
export const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();

/** A CSV of rows `from`..`to` (one lead each), with the header the mapping expects. */
export const leadsCsv = (from: number, to: number, header = 'Email,Event,When,Source') =>
  [
    header,
    ...Array.from(
      { length: to - from + 1 },
      (_, i) => `user${from + i}@example.com,Lead,${when},physical_store`,
    ),
  ].join('\r\n');

/** The scheduler's dependencies against the test app's database and the fake Graph; `now` is the test clock. */
export function sourceRunner(ctx: TestContext, graph: FakeGraph, now: () => Date): RunnerDeps {
  return {
    db: ctx.db,
    config: ctx.config,
    mailer: ctx.mailer,
    now,
    engine: {
      db: ctx.db,
      source: appDeliverySource(ctx.db, ctx.config),
      fetch,
      graphUrl: graph.url,
      apiVersion: 'v25.0',
      batchSize: 100,
      concurrency: 2,
      timeoutMs: 2000,
      backoff: { maxAttempts: 3, baseMs: 1, capMs: 5 },
    },
  };
}

export { saveAccount } from '../delivery/delivery.test-helpers.ts';

/** A source's input around a connection. */
export const sourceInput = (accountId: string, connection: object, extra: object = {}) => ({
  name: 'Leads drop',
  connection,
  mappings: MAPPING,
  hardcodedValues: {},
  settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
  pixelAccountId: accountId,
  schedule: { every: 'hour', minute: 0 },
  timeZone: 'Europe/Berlin',
  ...extra,
});

/** Moves the clock to the source's next due time and runs the scheduler once (a backlog drains in it). */
export async function runScheduled(
  agent: Agent,
  runner: RunnerDeps,
  id: string,
  setClock: (d: Date) => void,
) {
  const next = (await agent.get(`/api/sources/${id}`)).json().nextRunAt as string;
  setClock(new Date(next));
  return tick(runner);
}

export const sentIds = (graph: FakeGraph) => graph.requests.flatMap((r) => r.events.map((e) => e.event_id));
