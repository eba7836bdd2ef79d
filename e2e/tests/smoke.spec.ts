import { expect, test } from '@playwright/test';

test('an unknown path shows the not-found page', async ({ page }) => {
  const res = await page.goto('/this/does/not/exist');
  expect(res!.status()).toBe(404);
  await expect(
    page.getByRole('heading', { name: "Oops! The page you're looking for doesn't exist." }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
  expect(await page.title()).toBe('Page not found | Backsignal');
});
