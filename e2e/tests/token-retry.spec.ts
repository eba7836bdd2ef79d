import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { DESKTOP, bothSizes } from '../helpers/shots.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { uniquePixelId } from '../helpers/accounts.ts';
import { LEADS_MAPPING, uploadValidated, xsrfHeaders } from '../helpers/api-flow.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

// Issue 29, no dead ends (docs/decisions/0099): Meta refuses the token halfway through a send; the summary takes a
// new token and retries, and every event reaches Meta exactly once. Then the same file again: nothing new would
// be sent; the dashboard tells the two same-name files apart, and a send that sent nothing is not green.
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL ?? 'http://127.0.0.1:3199');
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());
test.beforeEach(() => {
  graph.reset();
  graph.setDelay(0);
});

const ROWS = 250;
/** The fake Graph accepts this token for its first 100 events, then refuses it with code 190. */
const EXPIRING = 'EAAB-expires-after-100-e2e-token';
const NEW_TOKEN = 'EAAB-e2e-new-token-7777';

/** One time for every upload of the file: the event ids derive from it, and the second upload is the same file. */
const WHEN = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
function csv() {
  const when = WHEN;
  const lines = ['Email,Event,When,Source'];
  for (let row = 2; row < ROWS + 2; row++) lines.push(`retry${row}@example.com,Lead,${when},physical_store`);
  return lines.join('\r\n') + '\r\n';
}

/** Uploaded, mapped and validated through the API; /submit prepares it. */
const validatedFile = (page: Page, name: string) => uploadValidated(page, name, csv(), LEADS_MAPPING);

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${screen}`).toEqual([]);
}

test('a refused token: replace it on the summary, retry, every event delivered exactly once', async ({
  page,
}) => {
  // Generous: a shared machine under load takes minutes for what takes seconds alone.
  test.setTimeout(480_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.setViewportSize(DESKTOP);
  const headers = await xsrfHeaders(page);
  const account = await page.request.post('/api/meta/accounts', {
    headers,
    data: { name: 'Flagship store', pixelId: pixel, accessToken: EXPIRING },
  });
  expect(account.ok()).toBe(true);

  const fileId = await validatedFile(page, 'leads.csv');
  await page.goto(`/submit?fileId=${fileId}`);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  // Never used for a file like this one: nothing is preselected.
  await expect(page.getByLabel('Send to')).toHaveValue('');
  await page.getByLabel('Send to').selectOption({ label: `Flagship store · ${pixel}` });
  await page.getByRole('button', { name: `Send ${ROWS} events to Meta` }).click();

  // Meta takes 100 events, then refuses the token: the send stops, and the summary offers the way on.
  await expect(page.getByText('Sending stopped: Access token expired or invalid')).toBeVisible({
    timeout: 30_000,
  });
  expect(graph.stats().distinctEvents).toBe(100);
  const refusedIds = graph.requests
    .filter((r) => r.outcome !== 'accepted')
    .flatMap((r) => r.events.map((e) => e.event_id));
  expect(refusedIds.length).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Replace the token and retry' })).toBeVisible();
  await axe(page, 'summary, token refused');
  await bothSizes(page, 'retry-summary-token-refused');

  await page.getByLabel('New access token', { exact: true }).fill(NEW_TOKEN);
  await page.getByRole('button', { name: 'Replace token and retry' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText(/This send retried one Meta had stopped: that send delivered 100 events/),
  ).toBeVisible();
  await expect(page.getByText(`${ROWS - 100} events sent, 100 skipped`)).toBeVisible();
  await axe(page, 'summary, after retry');
  await bothSizes(page, 'retry-summary-after-retry');

  // Each of the 250 events reached Meta exactly once, the refused ones with their original event_ids.
  expect(graph.stats()).toMatchObject({ distinctEvents: ROWS, eventsAccepted: ROWS });
  expect([...graph.deliveredCount.values()].every((n) => n === 1)).toBe(true);
  const accepted = new Set(
    graph.requests.filter((r) => r.outcome === 'accepted').flatMap((r) => r.events.map((e) => e.event_id)),
  );
  expect(refusedIds.every((id) => accepted.has(id))).toBe(true);

  // The same file again: every event is already at the pixel. The account that worked is preselected.
  const again = await validatedFile(page, 'leads.csv');
  await page.goto(`/submit?fileId=${again}`);
  await expect(
    page.getByText(`All ${ROWS} events were already delivered to this pixel. Nothing new would be sent.`),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: /^Send \d+ events? to Meta$/ })).toHaveCount(0);
  await axe(page, 'submit, already delivered');
  await bothSizes(page, 'retry-submit-already-delivered');
  // Sending anyway is a deliberate second choice.
  await page.getByRole('button', { name: 'Send them again anyway' }).click();
  await expect(page.getByRole('button', { name: `Send ${ROWS} events to Meta` })).toBeVisible();
  await page.getByLabel(/Skip them/).check();
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();

  // An API user (or a source) sends it with the skip: nothing new goes, and the badge is not the green 'sent'.
  const accountId = (await (await page.request.get('/api/meta/accounts')).json())[0].id as string;
  expect(
    (
      await page.request.post(`/api/uploads/${again}/send`, {
        headers,
        data: { selectedAccountId: accountId, skipDelivered: true },
      })
    ).status(),
  ).toBe(202);
  await expect
    .poll(async () => (await (await page.request.get(`/api/uploads/${again}/summary`)).json()).status, {
      timeout: 30_000,
    })
    .toBe('completed');
  expect(graph.stats().eventsAccepted).toBe(ROWS);

  await page.reload();
  const rows = page.getByRole('listitem').filter({ hasText: 'leads.csv' });
  await expect(rows).toHaveCount(2);
  const nothing = rows.filter({ hasText: 'nothing new sent' });
  await expect(nothing).toContainText(`${ROWS} already delivered`);
  await expect(nothing).toContainText('sent to Flagship store');
  await expect(nothing.locator('.bg-green-100')).toHaveCount(0);
  const sent = rows.filter({ hasText: `${ROWS} sent` });
  await expect(sent).toContainText('sent to Flagship store');
  await expect(sent).toContainText(`${ROWS} rows`);
  await axe(page, 'dashboard, same-name files');
  await bothSizes(page, 'retry-dashboard-same-name');
  await nothing.getByRole('button', { name: 'Delete leads.csv' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`${ROWS} rows`);
  await expect(dialog).toContainText('sent to Flagship store');
  await bothSizes(page, 'retry-dashboard-delete-dialog', false);
});
