import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { PUBLIC_PAGES } from '@backsignal/contracts/public';

const paths = Object.keys(PUBLIC_PAGES);

test.describe('public pages', () => {
  for (const path of paths) {
    test(`${path} is prerendered, has its own meta, hydrates and has no serious a11y violations`, async ({ page, request }) => {
      const html = await (await request.get(path)).text();
      expect(html).toContain(`<title>${PUBLIC_PAGES[path]!.title.replace(/&/g, '&amp;')}</title>`);
      expect(html).toContain('property="og:title"');
      expect(html).toMatch(/<div id="root"><[a-z]/);
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('Failed to load resource') && errors.push(m.text()));
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await expect(page).toHaveTitle(PUBLIC_PAGES[path]!.title);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
      expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([]);
    });
  }

  test('screenshots at 1440, 768 and 375', async ({ page }) => {
    test.setTimeout(180_000);
    for (const width of [1440, 768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of paths) {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
        expect(overflow, `${path} at ${width}`).toBe(false);
        await page.screenshot({ path: `screenshots/public-${width}${path === '/' ? '-home' : path.replace(/\//g, '-')}.png`, fullPage: true });
      }
    }
  });

  test('the landing page keeps its variant and sends a logged-in user to the dashboard', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('h1')).toBeVisible();
    const variant = await page.evaluate(() => localStorage.getItem('backsignal:landing-variant'));
    expect(['agency', 'csv']).toContain(variant);
    const heading = await page.locator('h1').textContent();
    await page.reload();
    await expect(page.locator('h1')).toHaveText(heading!);
  });

  test('keyboard: the first Tab reaches the skip link, which moves focus past the header', async ({ page }) => {
    await page.goto('/audit');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });

  test('sitemap and robots are served', async ({ request }) => {
    expect(await (await request.get('/sitemap.xml')).text()).toContain('/audit</loc>');
    expect(await (await request.get('/robots.txt')).text()).toContain('Disallow: /dashboard');
  });
});
