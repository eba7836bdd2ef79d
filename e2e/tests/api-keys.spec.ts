import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';

async function seriousAxe(page: Page, what: string, exclude?: string) {
  let b = new AxeBuilder({ page });
  if (exclude) b = b.exclude(exclude);
  const results = await b.analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${what}`).toEqual([]);
}

test('an owner creates an API key, a program uses it, revoking it refuses the next call (issue 32)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  await signUpAndVerify(page, { firstName: 'Kai' });
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Nightly CRM export');
  await page.getByRole('combobox', { name: 'Scope' }).selectOption('send');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByLabel('Nightly CRM export').inputValue();
  expect(secret).toMatch(/^bsk_/);
  await seriousAxe(page, 'the new key dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Never used')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  // A program's call: the key, no cookie.
  const who = await page.request.fetch('/api/v1/workspace', {
    headers: { authorization: `Bearer ${secret}`, cookie: '' },
  });
  expect(who.status()).toBe(200);
  expect((await who.json()).key.name).toBe('Nightly CRM export');
  await page.reload();
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByText(/^Last used: (?!Never)/)).toBeVisible();
  await seriousAxe(page, 'Settings → API keys');

  await page.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke this API key?' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  const after = await page.request.fetch('/api/v1/workspace', {
    headers: { authorization: `Bearer ${secret}`, cookie: '' },
  });
  expect(after.status()).toBe(401);

  // The reference, from the panel's link, rendered by Scalar from the generated document.
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+\/settings\/api-docs$/);
  await expect(page.getByRole('heading', { name: 'The key and its workspace' })).toBeVisible({
    timeout: 20_000,
  });
  await seriousAxe(page, 'the API reference');
  expect(csp, 'no request or script the page needs is refused by the CSP').toEqual([]);
});
