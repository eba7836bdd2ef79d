import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type FakeGraph, POISON_EVENT_NAME } from '../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from '../src/modules/delivery/delivery.test-helpers.ts';
import { sourceInput } from '../src/modules/sources/sources.test-helpers.ts';
import { createApiKey } from './api-key.ts';
import { createTestContext, type TestContext } from './context.ts';
import { loggedInAgent } from './agent.ts';

/**
 * The CLI as a person runs it: a child process (`packages/cli/src/cli.ts` under tsx) against the real app
 * listening on a free port, with the fake Graph API, an API key made in Settings and a template and pixel
 * account of the workspace. The send runs through the real delivery engine when the app enqueues it.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'packages/cli/src/cli.ts');
const TOKEN = 'EAAB-good-token-123456';
const scratch = mkdtempSync(join(tmpdir(), 'backsignal-cli-test-'));
const configDir = join(scratch, 'config');

let ctx: TestContext;
let graph: FakeGraph;
let apiUrl = '';
let secret = '';
let readKey = '';
let sourceId = '';
const runs: Promise<unknown>[] = [];
const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
// The app enqueues a send; here the engine runs it at once, as a worker would.
const queue = {
  send: async (_name: string, data: { runId: string }) => void runs.push(work(data.runId)),
} as unknown as PgBoss;

beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [TOKEN] });
  ctx = await createTestContext({
    deps: { queue },
    env: { META_GRAPH_URL: graph.url, DATA_DIR: join(scratch, 'data') },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const { agent } = await loggedInAgent(ctx.app, ctx.db);
  const accountId = await saveAccount(agent, TOKEN);
  const source = await agent.post(
    '/api/sources',
    sourceInput(
      accountId,
      { kind: 'csv_url', url: 'http://127.0.0.1:9/crm.csv', auth: 'none' },
      { name: 'Nightly CRM' },
    ),
  );
  expect(source.statusCode, source.body).toBeLessThan(300);
  sourceId = source.json().id;
  const t = await agent.post('/api/mappings', {
    name: 'Shopify orders',
    mappings: { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' },
    hardcoded: {},
  });
  expect(t.statusCode, t.body).toBeLessThan(300);
  secret = (await createApiKey(agent, 'send', { name: 'nightly' })).secret;
  readKey = (await createApiKey(agent, 'read', { name: 'reader' })).secret;
});
afterAll(async () => {
  await Promise.allSettled(runs);
  await ctx.close();
  await graph.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the CLI to its end: exit code, standard output and error. Never blocks this process's event loop. */
function cli(
  args: string[],
  env: Record<string, string> = {},
  started: (c: ChildProcess) => void = () => {},
) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, BACKSIGNAL_CONFIG_DIR: configDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    started(child);
  });
}

/**
 * A TCP hop in front of the app that, while `stallAfter` is set, stops forwarding a connection's bytes once that
 * many went through: a connection that hangs halfway through an upload, deterministically.
 */
async function stallingProxy(port: number) {
  const state = { stallAfter: null as number | null, forwarded: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (d: Buffer) => {
      if (state.stallAfter !== null && state.forwarded + d.length > state.stallAfter) {
        client.pause();
        return;
      }
      state.forwarded += d.length;
      upstream.write(d);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const csvFile = (name: string, rows: string[]) => {
  const path = join(scratch, name);
  writeFileSync(path, ['Email,Event,When,Source', ...rows].join('\n') + '\n');
  return path;
};
/** Rows of leads; each file its own people, or the pixel's ledger would leave them out as already delivered. */
const good = (n: number, who = 'buyer') =>
  Array.from({ length: n }, (_, i) => `${who}${i}@example.com,Lead,${when},physical_store`);

describe('the backsignal CLI against the app', () => {
  it('login checks the key, saves it readable only by the user and names the workspace', async () => {
    const r = await cli(['login', '--api-url', apiUrl, '--key', secret]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('with key "nightly" (send scope)');
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiUrl, apiKey: secret });

    const bad = await cli(['login', '--api-url', apiUrl, '--key', 'bsk_not-a-key'], {
      BACKSIGNAL_CONFIG_DIR: join(scratch, 'other'),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Missing or invalid API key');
  });

  it('send --wait: every event sent is exit 0, with the summary', async () => {
    const r = await cli([
      'send',
      csvFile('clean.csv', good(5)),
      '--template',
      'Shopify orders',
      '--pixel',
      'main store',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^All sent: clean\.csv \(upload [0-9a-f-]{36}, 5 rows\)/);
    expect(r.stdout).toContain('Sent: 5   Failed: 0');
    // Piped: progress as plain lines, never a redrawn bar.
    expect(r.stderr).toContain('Uploaded: clean.csv, 5 rows');
    expect(r.stderr).not.toContain('\r');
  });

  it('send with rows with errors: refused (1) without --skip-errors; with it and a refused event, 2; failed-rows gives the refused row', async () => {
    const path = csvFile('mixed.csv', [
      ...good(3, 'mixed'),
      `poison@example.com,${POISON_EVENT_NAME},${when},physical_store`,
      `no-time@example.com,Lead,,physical_store`,
    ]);
    const refused = await cli([
      'send',
      path,
      '--template',
      'Shopify orders',
      '--pixel',
      'Main store',
      '--wait',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('1 of 5 rows have errors. Fix them, or pass --skip-errors');

    const r = await cli([
      'send',
      path,
      '--template',
      'Shopify orders',
      '--pixel',
      'Main store',
      '--skip-errors',
      '--wait',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe('');
    const outcome = JSON.parse(r.stdout);
    expect(outcome).toMatchObject({
      fileName: 'mixed.csv',
      rows: 5,
      status: 'completed_with_errors',
      sent: 3,
      failed: 1,
      skippedErrorRows: 1,
    });

    const status = await cli(['status', outcome.uploadId, '--json']);
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toMatchObject({ sent: 3, failed: 1 });

    const out = join(scratch, 'failed.csv');
    const failed = await cli(['failed-rows', outcome.uploadId, '-o', out]);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stderr).toContain(`1 failed rows written to ${out}.`);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('poison@example.com');
    expect(text).not.toContain('mixed0@example.com');
  });

  it('refuses before uploading: an unknown template or pixel, a read-only key; all exit 1', async () => {
    const path = csvFile('any.csv', good(1));
    const noTemplate = await cli(['send', path, '--template', 'Nope', '--pixel', 'Main store']);
    expect([noTemplate.code, noTemplate.stderr]).toEqual([
      1,
      expect.stringContaining('No template is named "Nope". This workspace has: "Shopify orders".'),
    ]);
    const noPixel = await cli(['send', path, '--template', 'Shopify orders', '--pixel', 'Other', '--json']);
    expect(noPixel.code).toBe(1);
    expect(JSON.parse(noPixel.stdout).error.message).toContain('No pixel account is named "Other"');
    const readOnly = await cli(['send', path, '--template', 'Shopify orders', '--pixel', 'Main store'], {
      BACKSIGNAL_API_KEY: readKey,
      BACKSIGNAL_API_URL: apiUrl,
    });
    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toContain('This API key can only read');
    const noSource = await cli(['sources', 'run', 'Weekly ERP']);
    expect([noSource.code, noSource.stderr]).toEqual([
      1,
      expect.stringContaining('No source is named "Weekly ERP". This workspace has: "Nightly CRM".'),
    ]);
  });

  it('sources run asks for a run of the source named, as "Run now" does', async () => {
    const r = await cli(['sources', 'run', 'nightly crm', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      source: { id: sourceId, name: 'Nightly CRM' },
      message: 'The source will run in a few seconds.',
    });
    const { rows } = await ctx.db.query<{ requested: boolean }>(
      'select run_requested_at is not null as requested from sources where id = $1',
      [sourceId],
    );
    expect(rows[0]!.requested).toBe(true);
  });

  // Two whole CLI runs and a 120,000-row send: a busy 2-core machine took over the default 30 s.
  it(
    'send continues an upload an earlier run left halfway (killed mid-PATCH), from the offset the server has',
    { timeout: 120_000 },
    async () => {
      const port = Number(new URL(apiUrl).port);
      const proxy = await stallingProxy(port);
      const env = { BACKSIGNAL_API_URL: proxy.url, BACKSIGNAL_API_KEY: secret };
      // Over two 5 MiB requests, under the 10 MB limit.
      const path = csvFile('resumed.csv', good(120_000, 'resume'));
      const size = statSync(path).size;
      const args = ['send', path, '--template', 'Shopify orders', '--pixel', 'Main store', '--wait'];
      // The first run's connection hangs 6 MB in (the second request, halfway); the run is killed there.
      proxy.state.stallAfter = 6 * 1024 * 1024;
      const first = await cli(args, env, (child) => {
        const poll = setInterval(() => {
          if (proxy.state.forwarded >= 5.5 * 1024 * 1024) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        }, 20);
      });
      expect(first.code).not.toBe(0);
      proxy.state.stallAfter = null;
      const before = proxy.state.forwarded;

      const second = await cli(args, env);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(
        'Uploaded (continued where an earlier run stopped): resumed.csv, 120,000 rows',
      );
      expect(second.stdout).toContain('Sent: 120,000   Failed: 0');
      // Only the rest went up the second time: the first 5 MiB were not sent again.
      expect(proxy.state.forwarded - before).toBeLessThan(size - 5 * 1024 * 1024 + 64 * 1024);
      expect(readdirSync(join(scratch, 'data', 'tus'))).toEqual([]);
      await proxy.close();
    },
  );
});
