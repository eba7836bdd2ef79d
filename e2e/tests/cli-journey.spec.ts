import { spawn } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { uniquePixelId } from '../helpers/accounts.ts';
import { POISON_EVENT_NAME, startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';

/**
 * Issue 32's "done when", from a shell: a key made in Settings → API keys, `backsignal send` of a 100k-row file
 * with --wait (a few rows refused by Meta, so exit 2), status, failed rows; the app's summary agrees with what
 * the CLI printed, and a webhook receiver on loopback gets send.completed once, with a valid signature.
 */
const ROOT = resolve(import.meta.dirname, '../..');
// The CLI's own entry, run the way cli.test.ts runs it (tsx: the package's dist is built only to publish).
const CLI = join(ROOT, 'packages/cli/src/cli.ts');
const ROWS = 100_000;
/** Data rows (0-based) Meta refuses, each in its own batch of 1,000. */
const REFUSED = [7, 12_345, 50_000, 77_777, 99_999];
const HEADER = 'Email,event_name,event_time,action_source';

const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL ?? 'http://127.0.0.1:3199');
let graph: FakeGraph;
const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  received.push({ headers: req.headers, body: Buffer.concat(chunks) });
  res.writeHead(204).end();
});
let receiverUrl = '';
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/backsignal`;
});
test.afterAll(async () => {
  await graph.close();
  await new Promise((r) => receiver.close(r));
});

/**
 * Standard Webhooks' verification as its specification writes it, independent of the app's code: the secret is
 * `whsec_` + base64 key; the signed content is `${webhook-id}.${webhook-timestamp}.${raw body}`; the header holds
 * space-separated `v1,<base64 HMAC-SHA256>` entries, any of which may match; the timestamp within 5 minutes.
 */
function verifies(secret: string, m: { headers: IncomingHttpHeaders; body: Buffer }): boolean {
  const id = String(m.headers['webhook-id'] ?? '');
  const timestamp = String(m.headers['webhook-timestamp'] ?? '');
  if (!id || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), m.body]))
    .digest();
  return String(m.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'))
    .some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected));
}

/** The CLI as a child process: exit code and output. The key goes in on standard input, never argv. */
function backsignal(args: string[], configDir: string, stdin = '') {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done, fail) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BACKSIGNAL_CONFIG_DIR: configDir };
    delete env.BACKSIGNAL_API_URL;
    delete env.BACKSIGNAL_API_KEY;
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** "  Sent: 99,995   Failed: 5" as the CLI prints it. */
function printedCounts(stdout: string) {
  const m = /Sent: ([\d,]+) {3}Failed: ([\d,]+)/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  return { sent: Number(m![1]!.replace(/,/g, '')), failed: Number(m![2]!.replace(/,/g, '')) };
}

/** The summary's Sent and Failed counters as shown. */
const shownCounts = (page: Page) =>
  page.evaluate(() => {
    const stat = (label: string) => {
      const box = Array.from(document.querySelectorAll('dl > div')).find(
        (d) => d.querySelector('dt')?.textContent?.trim().toLowerCase() === label,
      );
      const n = /^[\d,]+/.exec(box?.querySelector('dd')?.textContent?.trim() ?? '');
      return n ? Number(n[0].replace(/,/g, '')) : null;
    };
    return { sent: stat('sent'), failed: stat('failed') };
  });

/** The export the shell sends: unique people (the pixel's ledger would leave repeats out), 5 rows Meta refuses. */
function writeExport(path: string, tag: string) {
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  const refused = new Set(REFUSED);
  let text = HEADER + '\n';
  for (let i = 0; i < ROWS; i++)
    text += `lead${i}-${tag}@example.com,${refused.has(i) ? POISON_EVENT_NAME : 'Lead'},${when},physical_store\n`;
  writeFileSync(path, text);
  return REFUSED.map((i) => `lead${i}-${tag}@example.com`);
}

test('from a shell: a key made in the app, backsignal send of 100k rows, summary, failed rows, a signed webhook', async ({
  page,
}, testInfo) => {
  // Generous: 100k rows uploaded, checked, prepared and sent on a busy 2-core machine. Nothing asserts on time.
  test.setTimeout(15 * 60_000);
  const apiUrl = String(testInfo.project.use.baseURL);
  const scratch = mkdtempSync(join(tmpdir(), 'backsignal-cli-journey-'));
  received.length = 0;
  graph.reset();
  try {
    const configDir = join(scratch, 'config');
    const tag = Math.random().toString(36).slice(2, 8);
    const exportPath = join(scratch, 'crm-nightly.csv');
    const refusedEmails = writeExport(exportPath, tag);
    const pixel = uniquePixelId();

    // 1. In the app: an account, a pixel account, a template, a key and a webhook endpoint.
    await signUpAndVerify(page, { firstName: 'Dev' });
    await page.getByRole('button', { name: "Let's go" }).click();

    await page.goto('/pixel-accounts');
    await page.getByLabel('Label (optional)').fill('Main store');
    await page.getByLabel('Pixel ID').fill(pixel);
    await page.getByLabel('API access token', { exact: true }).fill('EAAB-e2e-token-3232');
    await page.getByRole('button', { name: 'Save account' }).click();
    await expect(page.getByText('Account saved')).toBeVisible();

    // The template comes from mapping a sample of the export once in the app.
    await page.goto('/dashboard');
    const sample = readFileSync(exportPath, 'utf8').split('\n').slice(0, 4).join('\n') + '\n';
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'crm-sample.csv', mimeType: 'text/csv', buffer: Buffer.from(sample) });
    await expect(page).toHaveURL(/\/map-columns\?fileId=/);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('Email');
    await expect(page.getByLabel('Event time', { exact: true })).toHaveValue('event_time');
    await page.getByRole('button', { name: 'Mapping Actions' }).click();
    await page.getByLabel('Template name (max 20 characters)').fill('CRM nightly');
    await page.getByRole('button', { name: 'Save as new' }).click();
    await expect(page.getByText('Mapping saved as new!')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Nightly cron');
    await page.getByRole('combobox', { name: 'Scope' }).selectOption('send');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Your new API key' });
    const apiKey = await keyDialog.getByLabel('Nightly cron').inputValue();
    expect(apiKey).toMatch(/^bsk_/);
    await keyDialog.getByRole('button', { name: 'Done' }).click();

    await page.goto('/settings');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await expect(page.getByRole('checkbox', { name: /A send finished/ })).toBeChecked();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = await secretDialog.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: receiverUrl })).toBeVisible();

    // 2. From a shell.
    const login = await backsignal(['login', '--api-url', apiUrl], configDir, apiKey + '\n');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('with key "Nightly cron" (send scope)');
    expect(login.stdout + login.stderr).not.toContain(apiKey);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    const sent = await backsignal(
      ['send', exportPath, '--template', 'CRM nightly', '--pixel', 'Main store', '--wait'],
      configDir,
    );
    await testInfo.attach('backsignal send', { body: `${sent.stdout}\n${sent.stderr}` });
    expect(sent.code, sent.stdout + sent.stderr).toBe(2);
    const uploadId = /\(upload ([0-9a-f-]{36}), 100,000 rows\)/.exec(sent.stdout)?.[1] ?? '';
    expect(sent.stdout).toContain(`Sent with failures: crm-nightly.csv (upload ${uploadId}, 100,000 rows)`);
    const counts = printedCounts(sent.stdout);
    expect(counts).toEqual({ sent: ROWS - REFUSED.length, failed: REFUSED.length });
    // What "Meta" took: every event but the refused ones, each once.
    expect(graph.stats()).toMatchObject({ eventsAccepted: counts.sent, distinctEvents: counts.sent });
    expect(sent.stdout).toContain(`Failed rows: backsignal failed-rows ${uploadId} -o failed.csv`);

    const status = await backsignal(['status', uploadId], configDir);
    expect(status.code, status.stderr).toBe(2);
    expect(printedCounts(status.stdout)).toEqual(counts);

    const failedPath = join(scratch, 'failed.csv');
    const failed = await backsignal(['failed-rows', uploadId, '-o', failedPath], configDir);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stderr).toContain(`${REFUSED.length} failed rows written to ${failedPath}.`);
    const lines = readFileSync(failedPath, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l.trim());
    expect(lines[0]).toMatch(/^"?Email"?,"?event_name"?,"?event_time"?,"?action_source"?,"?reason"?$/);
    const emails = lines.slice(1).map((l) => /lead\d+-[a-z0-9]+@example\.com/.exec(l)?.[0]);
    expect(emails.sort()).toEqual([...refusedEmails].sort());
    for (const l of lines.slice(1)) expect(l).toContain(POISON_EVENT_NAME);

    // 3. The app's summary of that upload says what the CLI printed.
    await page.goto(`/summary?fileId=${uploadId}`);
    await expect(page.getByRole('heading', { name: 'Completed with Errors' })).toBeVisible({
      timeout: 20_000,
    });
    await expect.poll(() => shownCounts(page)).toEqual(counts);
    await expect(
      page.getByText(`${counts.sent.toLocaleString('en-US')} events sent, ${counts.failed} failed`),
    ).toBeVisible();

    // 4. send.completed for that run, once, signed with the secret shown once.
    const forRun = () =>
      received.filter((m) => {
        const body = JSON.parse(m.body.toString('utf8')) as { type: string; data: { uploadId?: string } };
        return body.type === 'send.completed' && body.data.uploadId === uploadId;
      });
    // The dispatcher ticks every few seconds.
    await expect.poll(() => forRun().length, { timeout: 60_000 }).toBeGreaterThan(0);
    // Delivered (HTTP 2xx) is final: the log shows the one delivery, and nothing is queued to go again.
    await page.goto('/settings/webhooks');
    await page.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('list', { name: 'Deliveries' });
    await expect(log.getByRole('listitem')).toHaveCount(1);
    const delivery = log.getByRole('listitem');
    await expect(delivery.getByText('send.completed', { exact: true })).toBeVisible();
    await expect(delivery.getByText('Delivered', { exact: true })).toBeVisible();
    await expect(delivery).toContainText('HTTP 204');
    await expect(delivery).toContainText('1 attempt');
    expect(received).toHaveLength(1);
    const [message] = forRun();
    expect(verifies(secret, message!)).toBe(true);
    expect(verifies(`whsec_${randomBytes(32).toString('base64')}`, message!)).toBe(false);
    expect(JSON.parse(message!.body.toString('utf8'))).toMatchObject({
      type: 'send.completed',
      data: {
        uploadId,
        pixelId: pixel,
        status: 'completed_with_errors',
        eventsSent: counts.sent,
        eventsFailed: counts.failed,
      },
    });
    expect(message!.body.toString('utf8')).not.toContain('@example.com');

    // The CLI keeps its login and a resume list, which a finished upload leaves empty.
    expect(readdirSync(configDir).sort()).toEqual(['config.json', 'uploads.json']);
    expect(JSON.parse(readFileSync(join(configDir, 'uploads.json'), 'utf8'))).toEqual({});
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  expect(() => readdirSync(scratch)).toThrow();
});
