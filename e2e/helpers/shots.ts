import type { Page } from '@playwright/test';

export const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** `<SHOTS>/<file>-desktop.png` and `-phone.png`, the whole page by default; the page is left at desktop size. */
export async function bothSizes(page: Page, file: string, fullPage = true) {
  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(vp);
    await page.screenshot({ path: `${SHOTS}/${file}-${size}.png`, fullPage });
  }
  await page.setViewportSize(DESKTOP);
}
