import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { uniquePixelId } from '../helpers/accounts.ts';
import { LEADS_MAPPING, uploadValidated, xsrfHeaders } from '../helpers/api-flow.ts';
import { DESKTOP, bothSizes } from '../helpers/shots.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';

// Issue 32: an endpoint added in Settings → Webhooks receives a signed send.completed after a send from the app.
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL ?? 'http://127.0.0.1:3199');
let graph: FakeGraph;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  received.push({ headers: req.headers, body });
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('thanks');
});
let receiverUrl = '';
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backsignal`;
});
test.afterAll(async () => {
  await graph.close();
  await new Promise((r) => receiver.close(r));
});

/** Standard Webhooks' check, from the specification: HMAC-SHA256 of "id.timestamp.body" keyed by the secret. */
function signedBy(secret: string, m: { headers: IncomingHttpHeaders; body: string }) {
  const content = `${m.headers['webhook-id']}.${m.headers['webhook-timestamp']}.${m.body}`;
  const sig = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(content)
    .digest('base64');
  return String(m.headers['webhook-signature']).split(' ').includes(`v1,${sig}`);
}

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${screen}`).toEqual([]);
}

async function preparedFile(page: Page, pixel: string): Promise<string> {
  const headers = await xsrfHeaders(page);
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  const csv = [
    'Email,Event,When,Source',
    ...Array.from({ length: 40 }, (_, i) => `lead${i}@example.com,Lead,${when},physical_store`),
  ].join('\r\n');
  const id = await uploadValidated(page, 'leads.csv', csv, LEADS_MAPPING);
  const account = await page.request.post('/api/meta/accounts', {
    headers,
    data: { name: 'Webhook store', pixelId: pixel, accessToken: 'EAAB-e2e-token-5555' },
  });
  expect(account.ok()).toBe(true);
  return id;
}

test('an endpoint added in settings receives send.completed, signed, and the log shows it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.setViewportSize(DESKTOP);

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
  await axe(page, 'webhooks, empty');
  await bothSizes(page, 'webhooks-empty');

  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByLabel('Description (optional)').fill('Ops pipeline');
  await page.getByRole('checkbox', { name: /A source paused/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Signing secret' });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByLabel('Secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
  await axe(page, 'webhooks, secret dialog');
  await bothSizes(page, 'webhooks-secret', false);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: receiverUrl })).toBeVisible();

  const pixel = uniquePixelId();
  const fileId = await preparedFile(page, pixel);
  await page.goto(`/submit?fileId=${fileId}`);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Send to').selectOption({ label: `Webhook store · ${pixel}` });
  await page.getByRole('button', { name: /^Send 40 events to Meta/ }).click();
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({
    timeout: 30_000,
  });

  // The dispatcher ticks every 3 seconds.
  await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
  const [message] = received;
  expect(JSON.parse(message!.body)).toMatchObject({
    type: 'send.completed',
    data: { status: 'completed', eventsSent: 40 },
  });
  expect(signedBy(secret, message!)).toBe(true);
  expect(message!.body).not.toContain('@example.com');

  await page.goto('/settings/webhooks');
  await page.getByRole('button', { name: 'Delivery log' }).click();
  const log = page.getByRole('list', { name: 'Deliveries' });
  await expect(log.getByText('send.completed', { exact: true })).toBeVisible();
  await expect(log.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(log.getByText(/HTTP 200/)).toBeVisible();
  await axe(page, 'webhooks, delivery log');
  await bothSizes(page, 'webhooks-log');

  // Redeliver: the same message (same webhook-id) again.
  await log.getByRole('button', { name: /Redeliver/ }).click();
  await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
  expect(received[1]!.headers['webhook-id']).toBe(message!.headers['webhook-id']);

  // Delete asks first; Escape keeps the endpoint.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
  await expect(confirm).toBeVisible();
  await axe(page, 'webhooks, delete dialog');
  await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
});
