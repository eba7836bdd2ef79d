import { expect, type Page } from '@playwright/test';

/**
 * A pixel id of the journey's own. The delivery ledger is the pixel's, whichever workspace sent (decision 0103),
 * so journeys sending the same fixture to one shared pixel would find each other's events already delivered.
 */
export const uniquePixelId = () => String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));

/** Saves a pixel account through the API as the signed-in user (the journeys that are not about accounts). */
export async function savePixelAccount(
  page: Page,
  account = { name: 'Main store', pixelId: uniquePixelId(), accessToken: 'EAAB-e2e-token-123456' },
) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post('/api/meta/accounts', {
    headers: { 'x-xsrf-token': xsrf },
    data: account,
  });
  expect(res.ok()).toBe(true);
}
