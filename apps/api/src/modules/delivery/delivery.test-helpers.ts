import { createHash, randomUUID } from 'node:crypto';
import { encodeEvent, type EncodedEvent } from '@backsignal/core';
import type { Db } from '../../db/db.ts';
import type { Agent } from '../../../test/agent.ts';
import type { TestContext } from '../../../test/context.ts';
import { runSend, type DeliverySource, type EngineOptions } from './delivery.engine.ts';
import { appDeliverySource } from './delivery.source.ts';
import type { RunRow } from './delivery.repo.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Test data only: an upload row and a pixel account row straight in the tables delivery reads. */
export async function seedUploadAndAccount(
  db: Db,
  workspaceId: string,
  opts: { status?: string; pixelId?: string } = {},
) {
  const uploadId = randomUUID();
  const accountId = randomUUID();
  await db.query(
    `insert into uploads (id, workspace_id, file_name, status, complete, headers) values ($1, $2, 'leads.csv', $3, true, '["email","event_name"]')`,
    [uploadId, workspaceId, opts.status ?? 'prepared'],
  );
  await db.query(
    `insert into pixel_accounts (id, workspace_id, name, pixel_id, token_ciphertext, token_iv, token_tag, key_version, token_last4)
     values ($1, $2, 'Main pixel', $3, '\\x00', '\\x00', '\\x00', 1, 'abcd')`,
    [accountId, workspaceId, opts.pixelId ?? testPixelId()],
  );
  return { uploadId, accountId };
}

/**
 * `n` valid events for CSV rows 2..n+1; rows in `poisonRows` make the fake Graph reject their batch naming
 * them, rows in `unnamedPoisonRows` without naming them.
 */
export function makeEvents(
  n: number,
  opts: { poisonRows?: number[]; unnamedPoisonRows?: number[]; prefix?: string } = {},
): { rowNumber: number; event: EncodedEvent }[] {
  const poison = new Set(opts.poisonRows ?? []);
  const unnamed = new Set(opts.unnamedPoisonRows ?? []);
  // Unique per call: the per-pixel ledger would otherwise skip events another test already delivered.
  const prefix = opts.prefix ?? randomUUID().slice(0, 8);
  return Array.from({ length: n }, (_, i) => {
    const rowNumber = i + 2;
    return {
      rowNumber,
      event: encodeEvent({
        event_name: poison.has(rowNumber)
          ? 'PoisonRow'
          : unnamed.has(rowNumber)
            ? 'PoisonRowUnnamed'
            : 'Lead',
        event_time: 1_767_225_600,
        action_source: 'system_generated',
        event_id: `${prefix}-${rowNumber}`,
        user_data: { em: [sha(`user${rowNumber}@example.com`)] },
      }),
    };
  });
}

/** The same events as makeEvents, generated lazily (the benchmark's million events never sit in memory). */
export function* streamEvents(
  n: number,
  prefix: string,
): Generator<{ rowNumber: number; event: EncodedEvent }> {
  for (let i = 0; i < n; i++) {
    const rowNumber = i + 2;
    yield {
      rowNumber,
      event: encodeEvent({
        event_name: 'Lead',
        event_time: 1_767_225_600,
        action_source: 'system_generated',
        event_id: `${prefix}-${rowNumber}`,
        user_data: { em: [sha(`user${rowNumber}@example.com`)] },
      }),
    };
  }
}

export function fakeSource(
  events:
    | Iterable<{ rowNumber: number; event: EncodedEvent }>
    | (() => Iterable<{ rowNumber: number; event: EncodedEvent }>),
  opts: { accessToken?: string; missingAccount?: boolean } = {},
): DeliverySource & { reconnect: string[] } {
  const reconnect: string[] = [];
  return {
    reconnect,
    async *events() {
      yield* typeof events === 'function' ? events() : events;
    },
    async credentials(run: RunRow) {
      return opts.missingAccount
        ? null
        : { pixelId: run.pixel_id, accessToken: opts.accessToken ?? 'good-token' };
    },
    async markReconnectNeeded(run: RunRow) {
      reconnect.push(run.pixel_account_id ?? '');
    },
  };
}

/**
 * The engine as the send job runs it for an upload, against a fake Graph, with quick retries for tests. `env` is
 * read at each run, since a test file's context and Graph are made in its beforeAll.
 */
export function appEngineRun(
  env: () => { ctx: TestContext; graphUrl: string },
  defaults: Partial<EngineOptions> = {},
) {
  return (runId: string, extra: Partial<EngineOptions> = {}) => {
    const { ctx, graphUrl } = env();
    return runSend(
      {
        db: ctx.db,
        source: appDeliverySource(ctx.db, ctx.config),
        fetch,
        graphUrl,
        apiVersion: 'v25.0',
        batchSize: 100,
        concurrency: 1,
        timeoutMs: 2000,
        backoff: { maxAttempts: 8, baseMs: 1, capMs: 5 },
        ...defaults,
        ...extra,
      },
      runId,
    );
  };
}

/**
 * A pixel id of its own for each test: the ledger is the pixel's, whichever workspace sent (decision 0103), so
 * tests sharing one database must not share pixels.
 */
export const testPixelId = () => String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));

/** A pixel account saved through the API, with the token the fake Graph accepts. */
export async function saveAccount(
  agent: Agent,
  token = 'EAAB-good-token-123456',
  pixelId = testPixelId(),
): Promise<string> {
  const res = await agent.post('/api/meta/accounts', {
    name: 'Main store',
    pixelId,
    accessToken: token,
  });
  if (res.statusCode >= 300) throw new Error(`account not saved: ${res.statusCode} ${res.body}`);
  return (res.json().account?.id ?? res.json().id) as string;
}
