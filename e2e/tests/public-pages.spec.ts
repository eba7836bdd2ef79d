import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Response } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { signUpAndVerify } from '../helpers/auth.ts';
import { DESKTOP, PHONE } from '../helpers/shots.ts';

const paths = Object.keys(PUBLIC_PAGES);
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
// React's hydration failures: minified errors #418 (text/HTML mismatch), #419, #423 and #425, or the words.
const HYDRATION = /#41[89]|#42[35]|hydrat/i;

interface SentEvent {
  name: string;
  props: Record<string, unknown>;
}

/**
 * Every analytics event the page sends to /api/analytics. Beacon bodies are not visible to Playwright, so an
 * init script passes a copy of each beacon's payload to the test (the beacon itself still goes out); requests
 * sent with fetch are read from the network.
 */
async function collectAnalytics(page: Page): Promise<SentEvent[]> {
  const events: SentEvent[] = [];
  const record = (body: string) => events.push(...(JSON.parse(body) as { events: SentEvent[] }).events);
  await page.exposeFunction('__recordAnalytics', record);
  await page.addInitScript(() => {
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      const rec = (window as unknown as { __recordAnalytics: (b: string) => void }).__recordAnalytics;
      if (String(url).endsWith('/api/analytics') && data instanceof Blob) void data.text().then(rec);
      return send(url, data);
    };
  });
  page.on('request', (r) => {
    if (
      r.method() !== 'POST' ||
      r.resourceType() === 'ping' ||
      new URL(r.url()).pathname !== '/api/analytics'
    )
      return;
    const body = r.postData();
    if (body) record(body);
  });
  return events;
}

/** Collects console errors and uncaught page errors (React reports hydration mismatches through both). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().includes('Failed to load resource') && errors.push(m.text()),
  );
  page.on('pageerror', (e) => errors.push(`${e.message}\n${e.stack ?? ''}`));
  return errors;
}

test.describe('public pages', () => {
  for (const path of paths) {
    test(`${path} is prerendered, has its own meta, hydrates and has no serious a11y violations`, async ({
      page,
      request,
    }) => {
      const html = await (await request.get(path)).text();
      expect(html).toContain(`<title>${PUBLIC_PAGES[path]!.title.replace(/&/g, '&amp;')}</title>`);
      expect(html).toContain('property="og:title"');
      // Crawlers need absolute URLs and a raster image.
      const tag = (re: RegExp) => html.match(re)?.[1];
      const suffix = path === '/' ? '/' : path;
      expect(tag(/property="og:url" content="([^"]+)"/)).toMatch(
        new RegExp(`^https?://[^/]+${suffix.replace(/[/-]/g, '\\$&')}$`),
      );
      expect(tag(/rel="canonical" href="([^"]+)"/)).toBe(tag(/property="og:url" content="([^"]+)"/));
      expect(tag(/property="og:image" content="([^"]+)"/)).toMatch(/^https?:\/\/[^/]+\/og-image\.png$/);
      expect(tag(/name="twitter:card" content="([^"]+)"/)).toBe('summary_large_image');
      expect(html).toMatch(/<div id="root"><[a-z]/);
      const errors = collectErrors(page);
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await expect(page).toHaveTitle(PUBLIC_PAGES[path]!.title);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
      expect(errors.filter((e) => HYDRATION.test(e))).toEqual([]);
    });
  }

  // Spec §4: score = leaks / 5 × 100; green at 100, yellow from 60, red below; verdict by count.
  for (const [leaks, score, color, verdict] of [
    ['', '0', 'red', "You're flying blind"],
    ['callTracking,callToJobTracking,revenueReporting', '60', 'yellow', 'Some tracking in place'],
    [
      'callTracking,callToJobTracking,revenueReporting,offlineConversions,campaignAttribution',
      '100',
      'green',
      'Excellent tracking hygiene',
    ],
  ] as const) {
    test(`/audit-results?leaks= with ${leaks ? leaks.split(',').length : 0} leaks hydrates without a mismatch and scores ${score}`, async ({
      page,
    }) => {
      const errors = collectErrors(page);
      await page.goto(`/audit-results?leaks=${leaks}`);
      await expect(page.getByTestId('score')).toHaveText(score);
      await expect(page.getByTestId('score')).toHaveAttribute('data-color', color);
      await expect(page.getByText(verdict)).toBeVisible();
      // Hydration errors surface asynchronously; give React a moment before checking.
      await page.waitForTimeout(300);
      expect(errors.filter((e) => HYDRATION.test(e))).toEqual([]);
    });
  }

  test('screenshots at 1440, 768 and 375', async ({ page }) => {
    test.setTimeout(180_000);
    for (const width of [1440, 768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of paths) {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth > window.innerWidth + 1,
        );
        expect(overflow, `${path} at ${width}`).toBe(false);
        await page.screenshot({
          path: `${SHOTS}/public-${width}${path === '/' ? '-home' : path.replace(/\//g, '-')}.png`,
          fullPage: true,
        });
      }
    }
  });

  test('the landing page keeps its variant and sends a logged-in user to the dashboard', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('h1')).toBeVisible();
    await page.waitForFunction(() => localStorage.getItem('backsignal:landing-variant') !== null);
    const variant = await page.evaluate(() => localStorage.getItem('backsignal:landing-variant'));
    expect(['agency', 'csv']).toContain(variant);
    await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', variant!);
    const heading = await page.locator('h1').textContent();
    await page.reload();
    await expect(page.locator('h1')).toHaveText(heading!);

    await signUpAndVerify(page);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a landing visit records exactly one landing_page_viewed, with the variant shown', async ({
    page,
  }) => {
    const events = await collectAnalytics(page);
    await page.goto('/');
    await page.waitForFunction(() => localStorage.getItem('backsignal:landing-variant') !== null);
    const stored = await page.evaluate(() => localStorage.getItem('backsignal:landing-variant'));
    await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', stored!);
    await expect
      .poll(() => events.filter((e) => e.name === 'landing_page_viewed').length, { timeout: 10_000 })
      .toBe(1);
    await page.waitForTimeout(3500); // one more flush interval: nothing else may arrive
    expect(events.filter((e) => e.name === 'landing_page_viewed').map((e) => e.props)).toEqual([
      { variant: stored },
    ]);
  });

  test('a variant fixed by config that arrives late is the only one shown, recorded and never stored', async ({
    page,
  }) => {
    const events = await collectAnalytics(page);
    await page.route('**/api/config', async (route) => {
      const res = await route.fetch();
      const body = { ...(await res.json()), landingVariant: 'agency' };
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({ response: res, json: body });
    });
    await page.goto('/');
    await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', 'agency');
    await expect
      .poll(() => events.filter((e) => e.name === 'landing_page_viewed').length, { timeout: 10_000 })
      .toBe(1);
    await page.waitForTimeout(3500);
    expect(events.filter((e) => e.name === 'landing_page_viewed').map((e) => e.props)).toEqual([
      { variant: 'agency' },
    ]);
    expect(await page.evaluate(() => localStorage.getItem('backsignal:landing-variant'))).toBeNull();
  });

  test('demo_viewed is recorded once when half the demo is visible, cta_clicked with label and position', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const events = await collectAnalytics(page);
    await page.goto('/csv-to-meta');
    await expect(page.locator('h1')).toBeVisible();
    const demo = page.getByRole('img', { name: /Animation of the Backsignal flow/ });
    await page.waitForTimeout(3500);
    expect(events.filter((e) => e.name === 'demo_viewed')).toEqual([]); // not yet in view
    await demo.scrollIntoViewIfNeeded();
    await expect
      .poll(() => events.filter((e) => e.name === 'demo_viewed').length, { timeout: 10_000 })
      .toBe(1);
    // Scrolled away and back: still recorded once.
    await page.evaluate(() => window.scrollTo(0, 0));
    await demo.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Start Free Beta' }).first().click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect
      .poll(() => events.filter((e) => e.name === 'cta_clicked').length, { timeout: 10_000 })
      .toBe(1);
    expect(events.find((e) => e.name === 'cta_clicked')!.props).toEqual({
      label: 'Start Free Beta',
      position: 'hero',
    });
    expect(events.filter((e) => e.name === 'demo_viewed').length).toBe(1);
  });

  test('keyboard: the first Tab reaches the skip link, which moves focus past the header', async ({
    page,
  }) => {
    await page.goto('/audit');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });

  test('every public page loads at most 150 KB of JavaScript, gzipped (ADR 0040 budget)', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const BUDGET_KB = 150;
    const sizes: Record<string, number> = {};
    for (const path of paths) {
      const scripts = new Map<string, Promise<number>>();
      const onResponse = (res: Response) => {
        const url = new URL(res.url());
        if (res.request().resourceType() !== 'script' || url.origin !== new URL(baseURL!).origin) return;
        if (!scripts.has(url.pathname))
          scripts.set(
            url.pathname,
            res.body().then((b) => gzipSync(b).length),
          );
      };
      page.on('response', onResponse);
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      page.off('response', onResponse);
      const bytes = (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0);
      sizes[path] = Math.round((bytes / 1024) * 10) / 10;
      expect(scripts.size, path).toBeGreaterThan(0);
    }
    test.info().annotations.push({ type: 'initial JS gzipped KB', description: JSON.stringify(sizes) });
    console.log('initial JS gzipped KB per public page:', sizes);
    const over = Object.entries(sizes).filter(([, kb]) => kb > BUDGET_KB);
    expect(over, `over the ${BUDGET_KB} KB budget`).toEqual([]);
  });

  test('the Open Graph image is a 1200x630 PNG', async ({ request }) => {
    const res = await request.get('/og-image.png');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    const png = await res.body();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(png.length).toBeLessThan(100_000);
  });

  test('sitemap and robots are served', async ({ request }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    expect(sitemap).toContain('/audit</loc>');
    expect(sitemap).toContain('/pricing</loc>');
    expect(await (await request.get('/robots.txt')).text()).toContain('Disallow: /dashboard');
  });

  // Issue 29, public site.
  test('/pricing: free during the beta, the beta’s real limits, paid plans with notice, the service per project', async ({
    page,
  }) => {
    const res = await page.goto('/pricing');
    expect(res?.status()).toBe(200);
    const main = page.getByRole('main');
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'Free during the open beta' })).toBeVisible();
    // The server's own limits (README: MAX_UPLOAD_MB, QUOTA_UPLOAD_MB_PER_DAY, QUOTA_ROWS_PER_DAY, RETENTION_DAYS).
    await expect(main).toContainText('10 MB');
    await expect(main).toContainText('1 GB uploaded');
    await expect(main).toContainText('5,000,000 rows each validated, prepared and sent');
    await expect(main).toContainText('Kept up to one year');
    await expect(main).toContainText(
      'We will announce them by email and on this page before they apply to you',
    );
    // No price for the app's future plans (spec §1): the only amount is the beta's $0.
    expect((await main.textContent())!.match(/\$\d+/g)).toEqual(['$0']);
    await expect(main.getByRole('heading', { name: 'Attribution engineering service' })).toBeVisible();
    await expect(main).toContainText('Priced per project');
    for (const word of ['One-time', 'Retainer', 'Performance-based']) await expect(main).toContainText(word);
    const hrefs = await main.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(['/signup', '/contact', '/services']));
    // Every page that offers the free beta says where its limits are, instead of 'no row limits'.
    await page.goto('/agency');
    await expect(page.getByText(/no row limits/)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'What the beta includes' })).toHaveAttribute(
      'href',
      '/pricing',
    );
  });

  test('/services is a service offered alongside the app, not a denial that the app exists', async ({
    page,
  }) => {
    await page.goto('/services');
    const main = page.getByRole('main');
    await expect(main).toContainText('attribution engineering is a service, not a SaaS tool');
    await expect(main).toContainText('alongside the Backsignal app');
    await expect(main.getByRole('heading', { name: 'Rather do it yourself?' })).toBeVisible();
    await expect(main.getByRole('link', { name: 'Start Free Beta' })).toHaveAttribute('href', '/signup');
    await expect(main.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing');
    await expect(main.getByRole('link', { name: 'Book a Call' })).toBeVisible();
  });

  test('the audit, industry and pricing pages are linked from the footer of every public page and the app', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const wanted = ['/audit', '/agency', '/local-services', '/retail', '/crm-integrations', '/pricing'];
    const linked = async () => {
      const hrefs = await page
        .locator('header a[href], footer a[href]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      return wanted.filter((w) => !hrefs.includes(w));
    };
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      expect(await linked(), `not linked from ${path}`).toEqual([]);
    }
    // Each goes where it says.
    await page.goto('/about-us');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Free tracking audit' }).click();
    await expect(
      page.getByRole('heading', { name: "Are You Wasting Money on Ads You Can't Track?" }),
    ).toBeVisible();
    await signUpAndVerify(page);
    expect(await linked(), 'not linked from the dashboard').toEqual([]);
  });

  test('every public form marks the fields it needs: an asterisk and aria-required, and no others', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const forms: Record<string, string[]> = {
      '/contact': ['Name', 'Email', 'Reason', 'Message'],
      '/audit': ['Name', 'Email', 'Business type'],
      '/automation': ['Name', 'Email', 'Business type'],
      '/lead-ai': ['Name', 'Email', 'Message'],
    };
    for (const [path, needed] of Object.entries(forms)) {
      await page.goto(path);
      const form = page
        .locator('form')
        .filter({ has: page.getByRole('button', { name: /./ }) })
        .last();
      await expect(form.locator('fieldset').first()).toBeEnabled();
      const fields = await form.locator('input:not([type="checkbox"]), select, textarea').evaluateAll((els) =>
        els
          .filter((el) => el.id && document.querySelector(`label[for="${el.id}"]`))
          .map((el) => {
            const label = document.querySelector(`label[for="${el.id}"]`)!;
            const mark = label.parentElement!.querySelector('[aria-hidden]');
            const shown = !!mark && mark.textContent === '*' && getComputedStyle(mark).display !== 'none';
            return {
              label: label.textContent!,
              ariaRequired: el.getAttribute('aria-required') === 'true',
              marked: shown,
            };
          }),
      );
      expect(
        fields.filter((f) => f.ariaRequired).map((f) => f.label),
        `${path}: aria-required`,
      ).toEqual(needed);
      expect(
        fields.filter((f) => f.marked).map((f) => f.label),
        `${path}: marked with an asterisk`,
      ).toEqual(needed);
      await expect(form.getByText('* required')).toBeVisible();
    }
  });

  test('signup with a weak password: one message per field, the first failing rule only', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto('/signup');
      await page.getByLabel('First name').fill('Alex');
      await page.getByLabel('Email').fill('alex@example.com');
      // Fails the number, uppercase and special-character rules.
      await page.getByLabel('Password', { exact: true }).fill('abcdefgh');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByText('Please resolve the password error before submitting.')).toHaveCount(1);
      await expect(page.getByText('Password must include at least one number.')).toHaveCount(1);
      await expect(page.getByText(/must include at least one (uppercase|special)/)).toHaveCount(0);
      await expect(page.locator('.Toastify__toast')).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/signup-weak-password-${size}.png` });
    }
  });

  test('screenshots at 1280x900 and 390x844: pricing, services, contact, header and footer', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      for (const path of ['/pricing', '/services', '/contact']) {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        await page.screenshot({
          path: `${SHOTS}/issue29${path.replace(/\//g, '-')}-${size}.png`,
          fullPage: true,
        });
      }
      await page.getByRole('banner').screenshot({ path: `${SHOTS}/issue29-header-${size}.png` });
      await page.getByRole('contentinfo').screenshot({ path: `${SHOTS}/issue29-footer-${size}.png` });
      if (size === 'phone') {
        await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
        await page.screenshot({ path: `${SHOTS}/issue29-header-menu-${size}.png` });
      }
    }
  });
});
