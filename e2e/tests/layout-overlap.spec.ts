import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { messyCsv } from '../helpers/csv.ts';
import { DESKTOP, PHONE, SHOTS } from '../helpers/shots.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { uniquePixelId } from '../helpers/accounts.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

// Issue 29: the sticky 'Step N of 5' pill never covers a heading, button or link of a step screen at any scroll
// position, and toasts never cover the header's buttons, on a desktop and on a phone.

const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL!); // set by playwright.config.ts
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());

const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

/**
 * Scrolls the page from top to bottom in steps of 40 px and, at each position, lists every visible heading,
 * button and link the step pill's box overlaps. Visible: the part of the element inside the viewport and inside
 * every scrolling or clipping ancestor; for page content, only the part below the sticky header, which is opaque
 * and hides what scrolls under it. Measured in the page in one pass (thousands of boxes: one Playwright
 * boundingBox call each would take minutes), with the same geometry boundingBox reads.
 */
function pillOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pill = Array.from(document.querySelectorAll('p, div, span')).find((el) =>
      /^Step \d of 5/.test(el.textContent ?? ''),
    );
    if (!pill) return ['no step pill on the page'];
    const header = document.querySelector('header');
    const what = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}"`;
    const clip = (r: DOMRect, el: Element) => {
      let [top, left, bottom, right] = [r.top, r.left, r.bottom, r.right];
      [top, left, bottom, right] = [
        Math.max(top, 0),
        Math.max(left, 0),
        Math.min(bottom, innerHeight),
        Math.min(right, innerWidth),
      ];
      if (header && !header.contains(el)) top = Math.max(top, header.getBoundingClientRect().bottom);
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        [top, left, bottom, right] = [
          Math.max(top, c.top),
          Math.max(left, c.left),
          Math.min(bottom, c.bottom),
          Math.min(right, c.right),
        ];
      }
      return { top, left, bottom, right };
    };
    const targets = Array.from(
      document.querySelectorAll(
        'h1, h2, h3, h4, h5, h6, [role="heading"], button, [role="button"], a[href], input[type="submit"], input[type="button"], summary',
      ),
    ).filter((el) => !pill.contains(el) && !el.contains(pill));
    const found = new Set<string>();
    const max = document.documentElement.scrollHeight - innerHeight;
    for (let y = 0; ; y = Math.min(y + 40, max)) {
      window.scrollTo(0, y);
      const p = pill.getBoundingClientRect();
      for (const el of targets) {
        const s = getComputedStyle(el);
        if (s.visibility !== 'visible' || Number(s.opacity) === 0) continue;
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) continue; // not rendered, or visually hidden (sr-only)
        const v = clip(r, el);
        if (v.bottom - v.top < 1 || v.right - v.left < 1) continue;
        const overlap =
          Math.min(v.right, p.right) - Math.max(v.left, p.left) > 0.5 &&
          Math.min(v.bottom, p.bottom) - Math.max(v.top, p.top) > 0.5;
        if (overlap) found.add(`${what(el)} at scrollY ${y}`);
      }
      if (y >= max) break;
    }
    window.scrollTo(0, 0);
    return [...found];
  });
}

async function expectPillClear(page: Page, screen: string) {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await expect(page.getByText(/^Step \d of 5/)).toBeVisible({ timeout: 30_000 });
    // Layout settles after a resize (the header publishes its new height on the next frame).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const overlaps = await pillOverlaps(page);
    expect.soft(overlaps, `the step pill covers these on ${screen} (${size})`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/layout-pill-${screen}-${size}.png` });
    // Half way down, where content has scrolled under the top of the window.
    await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2));
    await page.screenshot({ path: `${SHOTS}/layout-pill-${screen}-${size}-scrolled.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  await page.setViewportSize(DESKTOP);
}

/** An upload, mapped through the API (the screens under test are reached by their URLs). */
async function mappedFile(page: Page, name: string, content: string): Promise<string> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'x-xsrf-token': xsrf };
  const up = await page.request.post('/api/upload', {
    headers,
    multipart: { file: { name, mimeType: 'text/csv', buffer: Buffer.from(content) } },
  });
  expect(up.ok()).toBe(true);
  const id = (await up.json()).file.id as string;
  const mappings = {
    Email: 'email',
    Phone: 'phone',
    event_name: 'event_name',
    event_time: 'event_time',
    action_source: 'action_source',
    Value: 'value',
    Currency: 'currency',
    'First Name': 'first_name',
    'Last Name': 'last_name',
    Zip: 'zip',
  };
  const mapped = await page.request.patch(`/api/uploads/${id}/status`, {
    headers,
    data: { status: 'mapped', mappings, hardcodedValues: {} },
  });
  expect(mapped.ok()).toBe(true);
  return id;
}

test('the step pill covers no heading, button or link on map, validate, submit and summary', async ({
  page,
}) => {
  test.setTimeout(240_000);
  graph.reset();
  await signUpAndVerify(page, { firstName: 'Pat' });
  await page.getByRole('button', { name: "Let's go" }).click();

  // A file with an error row: the mapping and validation screens at their longest.
  const withErrors = await mappedFile(page, 'with-errors.csv', messyCsv({ withBadRow: true }));
  await page.goto(`/map-columns?fileId=${withErrors}`);
  await expect(page.getByRole('button', { name: 'Continue to Validation' })).toBeVisible({ timeout: 30_000 });
  await expectPillClear(page, 'map');

  await page.goto(`/verify-data?fileId=${withErrors}`);
  await expect(page.getByText('Rows with errors').first()).toBeVisible({ timeout: 30_000 });
  await expectPillClear(page, 'validate');

  // A clean file for the send.
  const clean = await mappedFile(page, 'clean.csv', messyCsv({ withBadRow: false }));
  await page.goto(`/verify-data?fileId=${clean}`);
  await expect(page.getByText('Looks great! Your data is clean and ready to submit')).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  await expect(page).toHaveURL(/\/submit\?fileId=/);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Pixel ID').fill(pixel);
  await page.getByLabel('API access token', { exact: true }).fill('EAAB-test-token-1234');
  await page.getByRole('button', { name: /^Save/ }).first().click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await expectPillClear(page, 'submit');

  await page.getByRole('button', { name: /^Send \d+ events? to Meta/ }).click();
  await expect(page).toHaveURL(/\/summary\?fileId=/);
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({
    timeout: 30_000,
  });
  await expectPillClear(page, 'summary');
});

/**
 * Every toast's box against every visible header control's, once the toasts have finished moving in. Measured
 * in one pass in the page: an older toast may close on its own meanwhile, and a Playwright call per box could
 * wait for one that has gone.
 */
async function expectToastsClearOfHeader(page: Page, where: string) {
  // The pointer on the newest toast holds it (pauseOnHover) and waits for it to stop moving in: on a busy
  // machine its 5 s could otherwise run out before it is measured.
  await page.locator('.Toastify__toast').first().hover();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.Toastify__toast')).every((t) =>
      t.getAnimations().every((a: Animation) => a.playState !== 'running'),
    ),
  );
  const { toasts, controls } = await page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const header = document.querySelector('header')!;
    return {
      toasts: Array.from(document.querySelectorAll('.Toastify__toast')).map(box),
      controls: Array.from(header.querySelectorAll('a[href], button'))
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible')
        .map((el) => ({ name: el.textContent!.trim() || 'logo', box: box(el) }))
        .filter((c) => c.box.width > 1 && c.box.height > 1),
    };
  });
  expect(controls.length, `header controls found ${where}`).toBeGreaterThan(0);
  expect(toasts.length, `toasts shown ${where}`).toBeGreaterThan(0);
  for (const t of toasts) {
    const covered = controls.filter((c) => intersects(c.box, t)).map((c) => c.name);
    expect.soft(covered, `header controls under a toast ${where}`).toEqual([]);
  }
}

/** Shows the contact form's 'Please fill in all required fields.' toast (Send with nothing filled). */
async function showToast(page: Page) {
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Please fill in all required fields.').first()).toBeVisible();
}

test('toasts never cover the header’s buttons: public and app header, desktop and phone, phone menu open', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const check = async (who: string) => {
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      await page.goto('/contact');
      await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled({ timeout: 30_000 });
      await showToast(page);
      await expectToastsClearOfHeader(page, `(${who}, ${size})`);
      await page.screenshot({ path: `${SHOTS}/layout-toast-${who}-${size}.png` });
      if (size === 'phone') {
        // A toast shown while the phone's menu is open (a toast lasts 5 s: shown anew, not waited for).
        await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
        await expect(page.getByRole('banner').getByRole('navigation')).toBeVisible();
        await showToast(page);
        await expectToastsClearOfHeader(page, `(${who}, phone menu open)`);
        await page.screenshot({ path: `${SHOTS}/layout-toast-${who}-phone-menu.png` });
      }
    }
    await page.setViewportSize(DESKTOP);
  };
  await check('visitor');
  await signUpAndVerify(page, { firstName: 'Toast' });
  await check('signed-in');
});
