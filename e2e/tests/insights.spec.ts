import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { uniquePixelId } from '../helpers/accounts.ts';
import { uploadValidated, xsrfHeaders } from '../helpers/api-flow.ts';
import { DESKTOP, PHONE, SHOTS, bothSizes } from '../helpers/shots.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';

// Issue 33: the Insights screen and its printed client report, on history made by real sends to the fake Graph.
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

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${screen}`).toEqual([]);
}

async function saveAccount(page: Page, name: string, pixelId: string): Promise<string> {
  const r = await page.request.post('/api/meta/accounts', {
    headers: await xsrfHeaders(page),
    data: { name, pixelId, accessToken: 'EAAB-e2e-token-123456' },
  });
  expect(r.ok()).toBe(true);
  const body = await r.json();
  return (body.account?.id ?? body.id) as string;
}

/** A file of `rows` events (every `poisonEvery`th refused by the fake Graph), sent to the account; its summary. */
async function sendFile(page: Page, accountId: string, name: string, rows: number, poisonEvery: number) {
  const headers = await xsrfHeaders(page);
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  const lines = ['Email,Phone,First name,Event,When,Source'];
  // Some values Backsignal fixes: national phones get the default country's code, millisecond times become
  // seconds. Only the rows Meta takes count as fixed.
  const fixed = { phone: 0, event_time: 0 };
  for (let i = 1; i <= rows; i++) {
    const digits = String(1000 + i).slice(-4);
    const national = i % 4 === 1;
    const inMs = i % 5 === 0;
    const poisoned = i % poisonEvery === 0;
    if (!poisoned) {
      fixed.phone += Number(national);
      fixed.event_time += Number(inMs);
    }
    lines.push(
      [
        `${name.replace(/\W/g, '')}-${i}@example.com`,
        i % 2 ? (national ? `(602) 555-${digits}` : `+1 602 555 ${digits}`) : '',
        i % 3 ? 'Sam' : '',
        poisoned ? 'PoisonRow' : 'Lead',
        inMs ? String(Date.parse(when)) : when,
        'physical_store',
      ].join(','),
    );
  }
  const id = await uploadValidated(page, name, lines.join('\r\n') + '\r\n', {
    Email: 'email',
    Phone: 'phone',
    'First name': 'first_name',
    Event: 'event_name',
    When: 'event_time',
    Source: 'action_source',
  });
  expect((await page.request.get(`/api/uploads/${id}/prepare`, { headers })).ok()).toBe(true);
  const send = await page.request.post(`/api/uploads/${id}/send`, {
    headers,
    data: { selectedAccountId: accountId },
  });
  expect(send.status()).toBe(202);
  let summary: { status: string; totalSent: number; totalFailed: number } = {
    status: 'running',
    totalSent: 0,
    totalFailed: 0,
  };
  await expect
    .poll(
      async () => {
        summary = await (await page.request.get(`/api/uploads/${id}/summary`)).json();
        return summary.status;
      },
      { timeout: 60_000 },
    )
    .not.toBe('running');
  return { id, ...summary, fixed };
}

/** The rows of a table view (its header cells' words → cell text), read as a screen reader would. */
async function tableRows(page: Page, caption: string) {
  const table = page.getByRole('table', { name: caption });
  await expect(table).toBeVisible();
  return table.evaluate((t) => {
    const head = Array.from(t.querySelectorAll('thead th')).map((h) => h.textContent ?? '');
    return Array.from(t.querySelectorAll('tbody tr')).map((r) =>
      Object.fromEntries(Array.from(r.children).map((c, i) => [head[i], (c.textContent ?? '').trim()])),
    );
  });
}
const num = (s: string | undefined) => Number((s ?? '').replace(/,/g, ''));

test('an empty workspace: Insights says what to do first', async ({ page }) => {
  await signUpAndVerify(page);
  // The first visit's welcome dialog.
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.setViewportSize(DESKTOP);
  await page.getByRole('link', { name: 'Insights' }).first().click();
  await expect(page).toHaveURL(/\/w\/[^/]+\/insights$/);
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nothing sent in these days yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dashboard' }).last()).toBeVisible();
  await axe(page, 'insights, empty');
  await bothSizes(page, 'insights-empty');
});

test('a workspace with sends: the tables agree with the summaries, the filters live in the URL, the report prints', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpAndVerify(page);
  await page.setViewportSize(DESKTOP);
  const shop = uniquePixelId();
  const web = uniquePixelId();
  const shopAccount = await saveAccount(page, 'Flagship store', shop);
  const webAccount = await saveAccount(page, 'Web shop', web);
  const sends = [
    await sendFile(page, shopAccount, 'march-leads.csv', 120, 10),
    await sendFile(page, shopAccount, 'april-leads.csv', 80, 1000),
    await sendFile(page, webAccount, 'web-orders.csv', 60, 20),
  ];
  const sent = sends.reduce((n, s) => n + s.totalSent, 0);
  const failed = sends.reduce((n, s) => n + s.totalFailed, 0);
  expect(failed).toBe(12 + 3);

  await page.goto('/insights?range=7');
  await expect(page).toHaveURL(/\/w\/[^/]+\/insights\?range=7$/);
  const volume = page.getByRole('region', { name: 'Events sent per day' });
  await expect(volume.getByRole('img')).toHaveCount(2);
  await axe(page, 'insights, charts');
  await bothSizes(page, 'insights-history');

  // The table view of the same numbers, reached by keyboard.
  const toggle = volume.getByRole('button', { name: 'Show table' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(volume.getByRole('button', { name: 'Show chart' })).toHaveAttribute('aria-pressed', 'true');
  const today = new Date().toISOString().slice(0, 10);
  const days = await tableRows(page, 'Events per day by pixel');
  expect(days).toHaveLength(7);
  const row = days.find((d) => d.Day === today)!;
  expect(num(row.Sent)).toBe(sent);
  expect(num(row.Failed)).toBe(failed);
  expect(num(row['Flagship store (' + shop + ')'])).toBe(sends[0]!.totalSent + sends[1]!.totalSent);
  expect(num(row['Web shop (' + web + ')'])).toBe(sends[2]!.totalSent);

  const match = page.getByRole('region', { name: 'Match keys over time' });
  await match.getByRole('button', { name: 'Show table' }).click();
  const keys = (await tableRows(page, 'Match keys per day')).find((d) => d.Day === today)!;
  expect(num(keys['Events counted'])).toBe(sent);
  expect(keys.Email).toBe('100%');

  // What was fixed automatically: the sent events whose phone or event time Backsignal corrected.
  const fixedPhones = sends.reduce((n, s) => n + s.fixed.phone, 0);
  const fixedTimes = sends.reduce((n, s) => n + s.fixed.event_time, 0);
  // Every fourth row from the first: 30 of march-leads.csv, 20 of april-leads.csv, 15 of web-orders.csv (none refused).
  expect(fixedPhones).toBe(30 + 20 + 15);
  const fixes = page.getByRole('region', { name: 'Fixed automatically' });
  await expect(fixes.getByText(`Phone numbers: ${fixedPhones} events`)).toBeVisible();
  await expect(fixes.getByText(`Event times: ${fixedTimes} events`)).toBeVisible();
  await expect(fixes.getByText(/Country code added where a number had none/)).toBeVisible();
  await expect(fixes.getByRole('listitem')).toHaveCount(2);
  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(vp);
    await fixes.screenshot({ path: `${SHOTS}/insights-fixes-${size}.png` });
  }
  await page.setViewportSize(DESKTOP);
  await fixes.getByRole('button', { name: 'Show table' }).click();
  expect(await tableRows(page, 'Events fixed automatically')).toEqual([
    {
      'What was fixed': 'Phone numbers',
      Events: String(fixedPhones),
      'Share of sent events': `${Math.round((fixedPhones / sent) * 100)}%`,
    },
    {
      'What was fixed': 'Event times',
      Events: String(fixedTimes),
      'Share of sent events': `${Math.round((fixedTimes / sent) * 100)}%`,
    },
  ]);

  const failures = page.getByRole('region', { name: 'Failures by reason' });
  await expect(failures.getByText(`${failed} events`)).toBeVisible();
  await bothSizes(page, 'insights-tables');

  // A pixel chosen: the URL keeps it, a reload opens the same view.
  await page.getByLabel('Pixel', { exact: true }).selectOption(web);
  await expect(page).toHaveURL(new RegExp(`pixel=${web}`));
  await page.reload();
  await expect(page.getByLabel('Pixel', { exact: true })).toHaveValue(web);
  await expect(failures.getByText('3 events')).toBeVisible();
  // A failure links to the send that had it.
  await failures.getByRole('link', { name: 'web-orders.csv' }).click();
  await expect(page).toHaveURL(new RegExp(`/summary\\?fileId=${sends[2]!.id}`));
  await page.goBack();

  // The client report for that pixel, printed.
  await page.getByRole('link', { name: 'Client report' }).click();
  await expect(page.getByRole('heading', { name: 'Conversions report' })).toBeVisible();
  await expect(page.getByText(`Web shop (${web})`).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Events per day by source' })).toBeVisible();
  const reportFixes = page.getByRole('region', { name: 'Fixed automatically' });
  await expect(reportFixes.getByText(`Phone numbers: ${sends[2]!.fixed.phone} events`)).toBeVisible();
  await expect(reportFixes.getByRole('table', { name: 'Events fixed automatically' })).toBeVisible();
  await axe(page, 'insights report');
  await bothSizes(page, 'insights-report');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/insights-report-print.png`, fullPage: true });
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await page.pdf({
      format,
      printBackground: true,
      path: `${SHOTS}/insights-report-${format}.pdf`,
    });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    const pages = (text.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    expect(pages, `${format} pages`).toBeGreaterThanOrEqual(1);
    expect(pages, `${format} pages`).toBeLessThanOrEqual(4);
  }
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('heading', { name: 'Conversions report' })).toBeVisible();
});
