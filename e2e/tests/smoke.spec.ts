import { expect, test } from '@playwright/test';

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByRole('heading', { name: "Oops! The page you're looking for doesn't exist." })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
});
