import { expect, type Page } from '@playwright/test';

/** Saves a pixel account through the API as the signed-in user (the journeys that are not about accounts). */
export async function savePixelAccount(
  page: Page,
  account = { name: 'Main store', pixelId: '123456789', accessToken: 'EAAB-e2e-token-123456' },
) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post('/api/meta/accounts', {
    headers: { 'x-xsrf-token': xsrf },
    data: account,
  });
  expect(res.ok()).toBe(true);
}
