import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import {
  HUBSPOT_CUSTOMERS,
  hubspotInternationalCsv,
  SHOPIFY_CUSTOMERS,
  shopifyInternationalCsv,
  STRIPE_CUSTOMERS,
  STRIPE_PHONE_COLUMN,
  stripeInternationalCsv,
  type Customer,
} from '../helpers/international-exports.ts';
import { uniquePixelId } from '../helpers/accounts.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

// Issue 29's journeys: real Shopify, HubSpot and Stripe exports with British, French and Dutch customers, sent
// to the fake Graph API, every valid national phone arriving with its own country's code (decision 0096); and
// the failed rows of a refused batch, downloaded and uploaded again, reading back to the same events.
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL!); // set by playwright.config.ts
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());
test.beforeEach(() => graph.reset());

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
mkdirSync(SHOTS, { recursive: true });
const shot = async (page: Page, name: string) => {
  for (const [w, h] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/intl-${name}-${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const ISO: Record<string, string> = {
  GB: 'gb',
  UK: 'gb',
  'United Kingdom': 'gb',
  FR: 'fr',
  France: 'fr',
  NL: 'nl',
  Netherlands: 'nl',
  Nederland: 'nl',
};

async function xsrf(page: Page) {
  return {
    'x-xsrf-token': (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
  };
}

async function saveAccount(page: Page) {
  const res = await page.request.post('/api/meta/accounts', {
    headers: await xsrf(page),
    data: { name: 'EU store', pixelId: pixel, accessToken: 'EAAB-e2e-token-5555' },
  });
  expect(res.ok()).toBe(true);
}

/** A field set to the same value on every row ("Use hardcoded value instead"). */
async function fixValue(page: Page, label: string, value: string) {
  const item = page.getByRole('listitem').filter({ has: field(page, label) });
  await item.getByRole('button', { name: 'Use hardcoded value instead' }).click();
  const control = field(page, label);
  if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
  else await control.fill(value);
}

/** Maps a field the suggestions left out to a column, adding the field first when it is not listed. */
async function mapColumn(page: Page, key: string, label: string, column: string) {
  if ((await field(page, label).count()) === 0) {
    await page.getByLabel('Search fields').fill(key);
    await page.getByRole('button', { name: `Add ${key} to Mapped Fields` }).click();
    await page.getByLabel('Search fields').fill('');
  }
  await field(page, label).selectOption(column);
}

async function uploadFromDashboard(page: Page, name: string, text: string): Promise<string> {
  await page.goto('/dashboard');
  await page.getByTestId('file-input').first().setInputFiles(file(name, text));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  // The mapping screen is a lazy chunk with the file's columns to fetch: on a busy machine, more than 10 s.
  await expect(field(page, 'Event name')).toBeVisible({ timeout: 60_000 });
  return new URL(page.url()).searchParams.get('fileId')!;
}

async function validateAndSend(page: Page, shotName?: string) {
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  const next = page.getByRole('button', { name: 'Continue to Submission' });
  await expect(next).toBeEnabled({ timeout: 30_000 });
  if (shotName) await shot(page, shotName);
  await next.click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Send to').selectOption({ label: `EU store · ${pixel}` });
  await page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(page).toHaveURL(/\/summary\?fileId=/);
}

/** Every customer's event arrived once; its phone hashed as E.164 digits with its country's code. */
function expectArrived(customers: Customer[]) {
  const events = graph.requests.filter((r) => r.outcome === 'accepted').flatMap((r) => r.events);
  expect(events).toHaveLength(customers.length);
  for (const c of customers) {
    const ev = events.find((e) => (e.user_data.em as string[] | undefined)?.includes(sha(c.email)));
    expect(ev, c.email).toBeTruthy();
    const ud = ev!.user_data;
    if (c.e164) expect(ud.ph, `${c.email} ${c.phone}`).toEqual([sha(c.e164)]);
    else expect(ud.ph, `${c.email} ${c.phone}`).toBeUndefined();
    expect(ud.country, c.email).toEqual([sha(ISO[c.country]!)]);
    expect(ud.zp, c.email).toEqual([sha(c.zip.toLowerCase().replace(/[\s-]/g, ''))]);
  }
}

test('Shopify, HubSpot and Stripe exports with UK, French and Dutch customers: every phone with its country code', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpAndVerify(page, { firstName: 'Nora' });
  await saveAccount(page);

  // Shopify orders: the suggestions map the phone and the billing country; the user adds the event's name and
  // where it happened. The file's phone country stays the default, US.
  await uploadFromDashboard(page, 'orders_export.csv', shopifyInternationalCsv());
  await expect(field(page, 'Phone')).toHaveValue('Phone');
  await expect(field(page, 'Country')).toHaveValue('Billing Country');
  await expect(field(page, 'Country code for phones without one')).toHaveValue('US');
  await fixValue(page, 'Event name', 'Purchase');
  await fixValue(page, 'Action source', 'physical_store');
  await validateAndSend(page);
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 60_000 });
  expectArrived(SHOPIFY_CUSTOMERS);

  // HubSpot contacts: countries written as names ("United Kingdom", "UK", "Nederland").
  graph.reset();
  await uploadFromDashboard(page, 'hubspot-contacts.csv', hubspotInternationalCsv());
  await expect(field(page, 'Phone')).toHaveValue('Phone Number');
  await expect(field(page, 'Country')).toHaveValue('Country/Region');
  await fixValue(page, 'Event name', 'Lead');
  await fixValue(page, 'Action source', 'system_generated');
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  // The one number no country can read is named with the countries tried, and its row still goes by email.
  await expect(page.getByText('not a valid phone number for GB, US or any country code').first()).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  await shot(page, 'hubspot-validation');
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Send to').selectOption({ label: `EU store · ${pixel}` });
  await page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 60_000 });
  expectArrived(HUBSPOT_CUSTOMERS);

  // Stripe payments: no phone among Stripe's columns; the shop's metadata column is mapped by hand.
  graph.reset();
  await uploadFromDashboard(page, 'unified_payments.csv', stripeInternationalCsv());
  await expect(field(page, 'Country')).toHaveValue('Card Address Country');
  await mapColumn(page, 'phone', 'Phone', STRIPE_PHONE_COLUMN);
  await fixValue(page, 'Event name', 'Purchase');
  await fixValue(page, 'Action source', 'physical_store');
  await validateAndSend(page);
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 60_000 });
  expectArrived(STRIPE_CUSTOMERS);
});

const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
// Cells a spreadsheet guards against formulas when our download writes them: '-1200, '+1 602…, '=Bob.
const ROUND_TRIP_CSV = [
  'Email,Phone,Zip,Value,Currency,First Name,Last Name,Country,Order Date',
  `bob@example.com,+1 602 555 0147,02108,-1200,USD,=Bob,Smith,US,${when}`,
  `ann@example.co.uk,07400 123456,SW1A 1AA,49.90,GBP,+Ann,-Eve,United Kingdom,${when}`,
  `zed@example.fr,06 12 34 56 78,75018,-5.5,EUR,@Zed,=Dupont,France,${when}`,
].join('\r\n');

test('the failed rows of a refused batch, downloaded and uploaded again, read back to the same events', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpAndVerify(page, { firstName: 'Ruth' });
  await saveAccount(page);

  const first = await uploadFromDashboard(page, 'refunds.csv', ROUND_TRIP_CSV);
  await expect(field(page, 'Phone')).toHaveValue('Phone');
  await fixValue(page, 'Event name', 'Lead');
  await fixValue(page, 'Action source', 'physical_store');
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  const next = page.getByRole('button', { name: 'Continue to Submission' });
  await expect(next).toBeEnabled({ timeout: 30_000 });
  await next.click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  const headers = await xsrf(page);
  const events = async (id: string) => {
    const res = await page.request.get(`/api/uploads/${id}/preview/full`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as unknown[];
  };
  const prepared = await events(first);
  expect(prepared).toHaveLength(3);

  // Meta refuses the pixel's token: the batch fails whole, and its rows are offered for download.
  graph.inject({ kind: 'graph', code: 190, subcode: 463, status: 401, message: 'Session has expired.' });
  await page.getByLabel('Send to').selectOption({ label: `EU store · ${pixel}` });
  await page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(page).toHaveURL(/\/summary\?fileId=/);
  await expect(page.getByRole('heading', { name: 'Completed with Errors' })).toBeVisible({ timeout: 60_000 });
  await page.getByText('Batch details').click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download failed rows of batch 1' }).click();
  const text = readFileSync((await (await download).path())!, 'utf8');
  for (const guarded of [`"'-1200"`, `"'+1 602 555 0147"`, `"'=Bob"`, `"'-Eve"`, `"'@Zed"`])
    expect(text).toContain(guarded);

  // Uploaded as a new file, mapped and validated the same way: the same events, event ids included.
  const again = await uploadFromDashboard(page, 'failed-rows-batch-1.csv', text);
  await fixValue(page, 'Event name', 'Lead');
  await fixValue(page, 'Action source', 'physical_store');
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page.getByText(/Spreadsheet apostrophe removed/).first()).toBeVisible({
    timeout: 30_000,
  });
  await shot(page, 'round-trip-validation');
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  expect(await events(again)).toEqual(prepared);
});
