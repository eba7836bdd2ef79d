import { expect, test, type Page } from '@playwright/test';
import { E2E_PASSWORD, linkFromOutbox, signUpAndVerify, uniqueEmail } from '../helpers/auth.ts';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `screenshots/auth-${name}.png`, fullPage: true });

/** Spec §2: a refused login says so inline and as a toast. */
async function expectLoginRefused(page: Page) {
  await expect(
    page.locator('#main').getByRole('alert').filter({ hasText: 'Invalid email or password' }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText('Invalid email or password'),
  ).toBeVisible();
}

test('a new user signs up, verifies, logs out and in, changes password and profile, and deletes the account', async ({
  page,
}) => {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('weak');
  await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
  await shot(page, 'signup');

  const { email, firstName } = await signUpAndVerify(page, { firstName: 'Avery' });
  await expect(page.getByRole('dialog', { name: 'Welcome to the Backsignal beta' })).toBeVisible();
  await page.getByRole('button', { name: "Let's go" }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${firstName}!` })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong-Password-1!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectLoginRefused(page);
  await shot(page, 'login-error');
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await page.getByLabel('Company', { exact: true }).fill('Rivera Plumbing');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile updated successfully.')).toBeVisible();
  await shot(page, 'settings-profile');

  await page.getByRole('tab', { name: 'Change Password' }).click();
  await page.getByLabel('Current password').fill(E2E_PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('Another-Strong-2027!');
  await page.getByLabel('Confirm new password').fill('Another-Strong-2027!');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password updated successfully.')).toBeVisible();
  await shot(page, 'settings-password');

  await page.getByRole('tab', { name: 'My Profile' }).click();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await shot(page, 'delete-dialog');
  await page.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Another-Strong-2027!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectLoginRefused(page);
});

test('forgot and reset password through the mailed link', async ({ page }) => {
  const { email } = await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  // Logout reloads the app on the home page once the server has answered: a navigation started before that
  // reload would be cut off by it.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('h1')).toBeVisible();
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/a reset link is on its way/)).toBeVisible();
  await shot(page, 'forgot-sent');
  await page.goto(await linkFromOutbox(email, '/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('Reset-Works-99!');
  await page.getByLabel('Confirm new password').fill('Reset-Works-98!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match.' }).first()).toBeVisible();
  await shot(page, 'reset');
  await page.getByLabel('Confirm new password').fill('Reset-Works-99!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Reset-Works-99!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an unverified user is held on /verify-notice and a bad link goes to /login', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('unverified');
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await shot(page, 'signup-check-inbox');
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/verify-notice$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/verify-notice$/);
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await shot(page, 'verify-notice');
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/verify?token=not-a-real-token');
  await expect(visitor).toHaveURL(/\/login$/);
  await expect(visitor.getByText('Invalid or expired token.')).toBeVisible();
  expect(await linkFromOutbox(email, '/verify')).toContain('/verify?token=');
});

test('auth screens fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['/signup', '/login', '/forgot-password', '/reset-password?token=x']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow, path).toBe(false);
    await shot(page, `phone${path.replace(/[/?=]/g, '-')}`);
  }
});
