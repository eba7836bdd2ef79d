import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { DeliverySummary } from '@backsignal/contracts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { startAppServer } from '../helpers/app-server.ts';
import { HISTORY_DAYS, seedMonthHistory, type MonthHistory } from '../helpers/month-history.ts';
import { DESKTOP, PHONE } from '../helpers/shots.ts';

// Issue 33, done when: an account with a month of history made by real sends; the Insights tables agree with the
// sends' summaries. Its own server on its own seeded data folder, beside the one the config starts.
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
let graph: FakeGraph;
let history: MonthHistory;
let server: Awaited<ReturnType<typeof startAppServer>>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  graph = await startFakeGraph();
  history = await seedMonthHistory(graph.url);
  server = await startAppServer(history.env);
});
test.afterAll(async () => {
  await server?.stop();
  await graph?.close();
  history?.remove();
});

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
async function shots(page: Page, name: string) {
  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(vp);
    // From the top: the sticky header would otherwise be drawn where the page was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/insights-month-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}
const num = (s: string | undefined) => Number((s ?? '').replace(/,/g, ''));
const pct = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '–');

test('a month of sends: every Insights table agrees with the sends’ summaries, filters live in the URL', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const at = (path: string) => server.url + path;
  await page.setViewportSize(DESKTOP);
  await page.goto(at('/login'));
  await page.getByLabel('Email').fill(history.email);
  await page.getByLabel('Password', { exact: true }).fill(history.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // What the sends' own summaries say, per day (the day each ended, in UTC) and pixel.
  const summaries: (DeliverySummary & { uploadId: string; day: string })[] = [];
  for (const id of history.uploadIds) {
    const r = await page.request.get(at(`/api/uploads/${id}/summary`));
    expect(r.ok()).toBe(true);
    const s = (await r.json()) as DeliverySummary;
    expect(s.status).not.toBe('running');
    summaries.push({ ...s, uploadId: id, day: s.finishedAt!.slice(0, 10) });
  }
  const days = new Set(summaries.map((s) => s.day));
  expect(days.size, 'days with sends').toBeGreaterThanOrEqual(20);
  const onDay = (day: string, pixelId?: string) =>
    summaries.filter((s) => s.day === day && (!pixelId || s.pixelAccount.pixelId === pixelId));
  const total = (list: typeof summaries, f: (s: DeliverySummary) => number) =>
    list.reduce((n, s) => n + f(s), 0);
  expect(
    total(summaries, (s) => s.totalFailed),
    'some rows were refused',
  ).toBeGreaterThan(0);
  expect(
    total(summaries, (s) => s.progress.eventsSkipped ?? 0),
    'a file sent twice',
  ).toBeGreaterThan(0);

  await page.goto(at('/insights'));
  await expect(page).toHaveURL(new RegExp(`/w/${history.slug}/insights`));
  // The screen's default range; chosen anyway, as a user reading a month would.
  await page.getByLabel('Days').selectOption({ label: `Last ${HISTORY_DAYS} days` });
  await expect(page.getByLabel('Days')).toHaveValue(String(HISTORY_DAYS));
  const volume = page.getByRole('region', { name: 'Events sent per day' });
  await expect(volume.getByRole('img')).toHaveCount(2);

  // Events per day by pixel.
  await volume.getByRole('button', { name: 'Show table' }).click();
  const perDay = await tableRows(page, 'Events per day by pixel');
  expect(perDay).toHaveLength(HISTORY_DAYS);
  const label = (p: { name: string; pixelId: string }) => `${p.name} (${p.pixelId})`;
  for (const row of perDay) {
    const day = row.Day!;
    for (const p of history.pixels)
      expect(num(row[label(p)]), `${day} ${p.name}`).toBe(total(onDay(day, p.pixelId), (s) => s.totalSent));
    expect(num(row.Sent), `${day} sent`).toBe(total(onDay(day), (s) => s.totalSent));
    expect(num(row.Failed), `${day} failed`).toBe(total(onDay(day), (s) => s.totalFailed));
    expect(num(row.Skipped), `${day} skipped`).toBe(total(onDay(day), (s) => s.progress.eventsSkipped ?? 0));
  }
  expect(perDay.map((r) => r.Day).filter((d) => days.has(d!))).toHaveLength(days.size);

  // Match keys: events counted are the day's sent events; each share is what the sent rows of the files carried.
  const match = page.getByRole('region', { name: 'Match keys over time' });
  await match.getByRole('button', { name: 'Show table' }).click();
  const keys = await tableRows(page, 'Match keys per day');
  for (const row of keys.filter((r) => r.Day !== 'All days')) {
    const list = onDay(row.Day!);
    const carried = list.map((s) => history.carried.get(s.uploadId)!);
    const sent = total(list, (s) => s.totalSent);
    expect(
      carried.reduce((n, c) => n + c.rows, 0),
      `${row.Day} rows sent`,
    ).toBe(sent);
    expect(num(row['Events counted']), `${row.Day} counted`).toBe(sent);
    expect(row.Email, `${row.Day} email`).toBe(pct(sent, sent));
    for (const [col, k] of [
      ['Phone', 'phone'],
      ['Name', 'name'],
      ['Address', 'zip'],
    ] as const)
      expect(row[col], `${row.Day} ${col}`).toBe(
        pct(
          carried.reduce((n, c) => n + c[k], 0),
          sent,
        ),
      );
  }
  expect(num(keys.at(-1)!['Events counted'])).toBe(total(summaries, (s) => s.totalSent));

  // Failures by reason: the summaries' groups added up, each with the sends that had it.
  const failures = page.getByRole('region', { name: 'Failures by reason' });
  await failures.getByRole('button', { name: 'Show table' }).click();
  const reasons = await tableRows(page, 'Failed events by reason');
  const expected = new Map<string, { events: number; sends: number }>();
  for (const s of summaries)
    for (const g of s.failureGroups) {
      const e = expected.get(g.explanation.title) ?? { events: 0, sends: 0 };
      expected.set(g.explanation.title, { events: e.events + g.events, sends: e.sends + 1 });
    }
  expect(expected.size, 'two kinds of refusal').toBe(2);
  expect(
    Object.fromEntries(reasons.map((r) => [r.Reason, { events: num(r.Events), sends: num(r.Sends) }])),
  ).toEqual(Object.fromEntries(expected));
  expect(reasons.reduce((n, r) => n + num(r.Events), 0)).toBe(total(summaries, (s) => s.totalFailed));

  // The month view: its charts, then with one table open, at both sizes; each chart card alone on a phone.
  mkdirSync(SHOTS, { recursive: true });
  const cards = [volume, match, failures];
  for (const card of cards) await card.getByRole('button', { name: 'Show chart' }).click();
  await shots(page, 'charts');
  for (const [i, card] of cards.entries()) {
    await page.setViewportSize(PHONE);
    await card.screenshot({ path: `${SHOTS}/insights-month-phone-card-${i + 1}.png` });
  }
  await volume.getByRole('button', { name: 'Show table' }).click();
  await shots(page, 'table');

  // One pixel chosen: the URL keeps it with the range, a reload opens the same view with that pixel's numbers.
  const web = history.pixels[1]!;
  await page.getByLabel('Pixel', { exact: true }).selectOption(web.pixelId);
  await expect(page).toHaveURL(new RegExp(`/w/${history.slug}/insights\\?.*pixel=${web.pixelId}`));
  await page.reload();
  await expect(page.getByLabel('Pixel', { exact: true })).toHaveValue(web.pixelId);
  await expect(page.getByLabel('Days')).toHaveValue(String(HISTORY_DAYS));
  // The table toggle is the card's own state: a reload shows charts again.
  await volume.getByRole('button', { name: 'Show table' }).click();
  const mine = summaries.filter((s) => s.pixelAccount.pixelId === web.pixelId);
  const filtered = await tableRows(page, 'Events per day by pixel');
  expect(filtered).toHaveLength(HISTORY_DAYS);
  for (const row of filtered) {
    expect(num(row.Sent), `${row.Day} sent, one pixel`).toBe(
      total(onDay(row.Day!, web.pixelId), (s) => s.totalSent),
    );
    expect(num(row.Failed), `${row.Day} failed, one pixel`).toBe(
      total(onDay(row.Day!, web.pixelId), (s) => s.totalFailed),
    );
  }
  expect(filtered.reduce((n, r) => n + num(r.Sent), 0)).toBe(total(mine, (s) => s.totalSent));

  // A year: a bar per week (decision 0122), each week the pixel's sends of its days.
  await page.getByLabel('Days').selectOption({ label: 'Last 365 days' });
  await expect(page).toHaveURL(new RegExp(`range=365.*pixel=${web.pixelId}|pixel=${web.pixelId}.*range=365`));
  // The card is the same one, its table still open.
  const weekly = page.getByRole('region', { name: 'Events sent per week' });
  await expect(weekly.getByRole('button', { name: 'Show chart' })).toBeVisible();
  const weeks = await tableRows(page, 'Events per week by pixel');
  expect(weeks.length).toBeGreaterThanOrEqual(52);
  for (const [i, row] of weeks.entries()) {
    const start = row['Week of']!;
    const end = weeks[i + 1]?.['Week of'] ?? '9999-12-31';
    const inWeek = mine.filter((s) => s.day >= start && s.day < end);
    expect(num(row.Sent), `week of ${start}`).toBe(total(inWeek, (s) => s.totalSent));
    expect(num(row.Failed), `week of ${start}, failed`).toBe(total(inWeek, (s) => s.totalFailed));
  }
  await shots(page, 'year');
});
