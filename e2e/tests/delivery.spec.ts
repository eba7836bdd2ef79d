import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { uniquePixelId } from '../helpers/accounts.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

// The app under test sends to META_GRAPH_URL; this journey runs the fake Graph API on that address itself,
// so it can slow it down and read what arrived.
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL!); // set by playwright.config.ts
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());
test.beforeEach(() => {
  graph.reset();
  graph.setDelay(0);
});

/** Full-page screenshot at a desktop (1440 px) or phone (375 px) width. */
const shot = async (page: Page, name: string, width = 1440) => {
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: `screenshots/delivery-${name}.png`, fullPage: true });
};

function csv(
  rows: number,
  poisonRows: number[] = [],
  when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z',
) {
  const lines = ['Email,Event,When,Source'];
  for (let row = 2; row < rows + 2; row++) {
    lines.push(
      `buyer${row}@example.com,${poisonRows.includes(row) ? 'PoisonRow' : 'Lead'},${when},physical_store`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** Uploads, maps, validates and prepares a file through the API as the logged-in browser user. */
async function preparedFile(page: Page, content: string, name: string, withAccount = true): Promise<string> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'x-xsrf-token': xsrf };
  const up = await page.request.post('/api/upload', {
    headers,
    multipart: { file: { name, mimeType: 'text/csv', buffer: Buffer.from(content) } },
  });
  expect(up.ok()).toBe(true);
  const id = (await up.json()).file.id as string;
  const mappings = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
  expect(
    (
      await page.request.patch(`/api/uploads/${id}/status`, {
        headers,
        data: { status: 'mapped', mappings, hardcodedValues: {} },
      })
    ).ok(),
  ).toBe(true);
  const check = await page.request.get(`/api/uploads/${id}/validate`, { headers });
  expect(check.ok()).toBe(true);
  const validated = await page.request.patch(`/api/uploads/${id}/status`, {
    headers,
    data: { status: 'validated' },
  });
  expect(validated.ok(), `${await validated.text()} after ${(await check.text()).slice(0, 300)}`).toBe(true);
  if (withAccount) {
    expect(
      (
        await page.request.post('/api/meta/accounts', {
          headers,
          data: { name: 'Flagship store', pixelId: pixel, accessToken: 'EAAB-e2e-token-5555' },
        })
      ).ok(),
    ).toBe(true);
  }
  return id;
}

async function sendFromSubmit(page: Page, fileId: string, testCode = '') {
  await page.goto(`/submit?fileId=${fileId}`);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Send to').selectOption({ label: `Flagship store · ${pixel}` });
  if (testCode) await page.getByLabel('Test event code').fill(testCode);
  await page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(page).toHaveURL(/\/summary\?fileId=/);
}

test('a clean send ends in Submission Successful with batch details', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page);
  const fileId = await preparedFile(page, csv(230), 'clean.csv');
  await sendFromSubmit(page, fileId, 'TEST777');
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Submission complete!')).toBeVisible();
  await expect(page.getByText('230 events sent.')).toBeVisible();
  await expect(page.getByText('TEST777')).toBeVisible();
  await expect(page.getByText('Step 5 of 5')).toBeVisible();
  await page.getByText('Batch details').click();
  await expect(page.getByText(/Rows 202–231/)).toBeVisible();
  expect(graph.stats().eventsAccepted).toBe(230);
  expect(graph.requests.every((r) => r.testEventCode === 'TEST777')).toBe(true);
  await shot(page, 'success');
  await shot(page, 'phone-success', 375);
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a batch Meta rejects is isolated: Completed with Errors, the reason, and the failed rows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page);
  const fileId = await preparedFile(page, csv(150, [77]), 'with-bad-row.csv');
  await sendFromSubmit(page, fileId);
  await expect(page.getByRole('heading', { name: 'Completed with Errors' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('149 events sent, 1 failed.')).toBeVisible();
  const reason = page.getByRole('listitem', { name: 'Meta rejected these rows' });
  await expect(reason).toContainText('Row 77');
  await expect(reason.getByText(/Meta says:.*Invalid parameter/)).toBeVisible();
  await shot(page, 'errors');
  // The per-batch download stays in the batch details.
  await page.getByText('Batch details').click();
  await page.getByRole('button', { name: 'Failed (1)' }).click();
  await expect(page.getByText(/^Row 77 · 1 event/)).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download failed rows of batch 2' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('failed-rows-batch-2.csv');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe('"Email","Event","When","Source","reason"');
  expect(text).toContain('"buyer77@example.com","PoisonRow"');
  await shot(page, 'phone-errors', 375);
});

test('closing /summary mid-send does not stop it; reopening shows progress and then the result', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page);
  const fileId = await preparedFile(page, csv(1200), 'big.csv');
  // Meta answers nothing until the reopened page has shown the send in progress (the engine waits 60 s).
  graph.setDelay(30_000);
  await sendFromSubmit(page, fileId);
  await expect(page.getByRole('heading', { name: 'Sending…' })).toBeVisible();
  await expect(page.getByText(/Safe to close this window/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Events processed' })).toBeVisible();
  await shot(page, 'sending');
  await page.close();

  const again = await context.newPage();
  await again.goto(`/summary?fileId=${fileId}`);
  await expect(again.getByRole('heading', { name: 'Sending…' })).toBeVisible();
  await shot(again, 'phone-sending', 375);
  graph.setDelay(0);
  await expect(again.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(again.getByText('1,200 events sent.')).toBeVisible();
  // Every event arrived exactly once although the window was closed in the middle.
  expect(graph.stats()).toMatchObject({ eventsAccepted: 1200, distinctEvents: 1200 });
});

test('an expired token stops the send: the summary says to reconnect and Pixel Accounts shows it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page);
  const fileId = await preparedFile(page, csv(1000), 'token.csv');
  // Meta refuses the token for every request already in flight (the app sends up to 4 batches at once).
  const expired = {
    kind: 'graph' as const,
    code: 190,
    subcode: 463,
    status: 401,
    message: 'Error validating access token: Session has expired.',
  };
  graph.inject(expired, expired, expired, expired);
  await sendFromSubmit(page, fileId);
  await expect(page.getByRole('heading', { name: 'Completed with Errors' })).toBeVisible({ timeout: 30_000 });
  const alert = page.getByRole('alert');
  await expect(alert.getByText('Sending stopped: Access token expired or invalid')).toBeVisible();
  await expect(alert.getByText(/Reconnect the pixel account/)).toBeVisible();
  // Nothing more went out after Meta refused the token: at most the batches already in flight, of 10.
  expect(graph.requests.length).toBeLessThanOrEqual(4);
  expect(graph.stats().eventsAccepted).toBe(0);
  await expect(page.getByText(/events were not sent\./)).toBeVisible();
  // A stopped run is not a success: no 'Submission complete!' toast.
  await expect(page.getByText('Submission complete!')).toHaveCount(0);
  await shot(page, 'stopped');
  await shot(page, 'phone-stopped', 375);
  await page.goto('/pixel-accounts');
  await expect(
    page.getByText(
      'Reconnect needed: Meta refused this token. Paste a new one under Replace token and save.',
    ),
  ).toBeVisible();
});

test('rows already sent to the pixel: skip them by default, or send them anyway', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpAndVerify(page);
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  const first = await preparedFile(page, csv(30, [], when), 'first.csv');
  await sendFromSubmit(page, first);
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  expect(graph.stats().eventsAccepted).toBe(30);

  // The same 30 rows plus 10 new ones: skipped by default.
  graph.reset();
  const second = await preparedFile(page, csv(40, [], when), 'second.csv', false);
  await page.goto(`/submit?fileId=${second}`);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('30 of these rows were already sent to this pixel.')).toBeVisible();
  await expect(page.getByLabel(/Skip them/)).toBeChecked();
  await shot(page, 'submit-skip-choice');
  // The button counts what will go: the 30 delivered rows are skipped, unless sent anyway.
  await page.getByLabel('Send them anyway').check();
  await expect(page.getByRole('button', { name: 'Send 40 events to Meta' })).toBeVisible();
  await page.getByLabel(/Skip them/).check();
  await page.getByRole('button', { name: 'Send 10 events to Meta' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('10 events sent, 30 skipped (already delivered to this pixel).')).toBeVisible();
  expect(graph.stats()).toMatchObject({ eventsAccepted: 10, distinctEvents: 10 });

  // The same 40 rows again, sent anyway.
  graph.reset();
  const third = await preparedFile(page, csv(40, [], when), 'third.csv', false);
  await page.goto(`/submit?fileId=${third}`);
  await expect(page.getByText('40 of these rows were already sent to this pixel.')).toBeVisible({
    timeout: 20_000,
  });
  await page.getByLabel('Send them anyway').check();
  await page.getByRole('button', { name: 'Send 40 events to Meta' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('40 events sent.')).toBeVisible();
  expect(graph.stats()).toMatchObject({ eventsAccepted: 40, distinctEvents: 40 });
});
