import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

// Set by playwright.config.ts (a per-run folder unless E2E_DATA_DIR names one).
const DATA_DIR = process.env.E2E_DATA_DIR!;
export const E2E_PASSWORD = 'Journey-Pass-2026!';

/** The newest link to `path` mailed to `to`, read from the server's outbox. */
export async function linkFromOutbox(to: string, path: string): Promise<string> {
  const dir = join(DATA_DIR, 'outbox');
  for (let i = 0; i < 50; i++) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).sort().reverse();
    } catch {
      /* outbox not created yet */
    }
    for (const f of files) {
      const mail = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string; text: string };
      const m = mail.to === to ? new RegExp(`https?://[^\\s]+${path}\\?token=[\\w-]+`).exec(mail.text) : null;
      if (m) return new URL(m[0]).pathname + new URL(m[0]).search;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}

export const uniqueEmail = (tag = 'user') =>
  `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Signs up through the UI, opens the verification link from the outbox, and lands on /dashboard. */
export async function signUpAndVerify(page: Page, opts: { email?: string; firstName?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const firstName = opts.firstName ?? 'Jordan';
  await page.goto('/signup');
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill('Rivera');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  // The same answer for new and existing addresses (issue 21): no session until the user logs in.
  await expect(page.getByText('Check your inbox to continue.')).toBeVisible();
  await page.goto(await linkFromOutbox(email, '/verify'));
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, password: E2E_PASSWORD, firstName };
}
