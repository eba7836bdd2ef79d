import { expect, type Page } from '@playwright/test';

export const captchaBox = (page: Page) => page.getByLabel(/I'm not a robot/);

/**
 * Ticks the development captcha as a visitor does: click the box, then see it ticked. The box ticks only once
 * its token has arrived, so a submit after this never races the token (a bare check() did, and lost when the
 * token took longer than Playwright's next click).
 */
export async function solveCaptcha(page: Page): Promise<void> {
  const box = captchaBox(page);
  await box.click();
  await expect(box).toBeChecked();
}
