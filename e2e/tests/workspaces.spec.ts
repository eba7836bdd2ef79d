import { expect, test } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { messyCsv } from '../helpers/csv.ts';

const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

test('a second workspace keeps its own files, and its address opens it (issue 31)', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page, { firstName: 'Robin' });
  await page.getByRole('button', { name: "Let's go" }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+\/dashboard$/);
  const first = new URL(page.url()).pathname;

  // New workspace from the header's switcher.
  await page.getByRole('button', { name: /^Workspace: .*, Owner$/ }).click();
  await page.getByRole('menuitem', { name: '+ New workspace' }).click();
  await page.getByRole('dialog').getByLabel('Workspace name').fill('Client Beta');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/w\/client-beta-[0-9a-f]{8}\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Workspace: Client Beta, Owner' })).toBeVisible();
  const second = new URL(page.url()).pathname;

  // Upload in it; the next screen stays in the workspace.
  await page.getByTestId('file-input').setInputFiles(file('beta-leads.csv', messyCsv({ withBadRow: false })));
  await expect(page).toHaveURL(/\/w\/client-beta-[0-9a-f]{8}\/map-columns\?fileId=/);

  // Back in the first workspace, the file is not there.
  await page.getByRole('button', { name: 'Workspace: Client Beta, Owner' }).click();
  await page
    .getByRole('menuitem')
    .filter({ hasNotText: 'Client Beta' })
    .filter({ hasNotText: 'New workspace' })
    .click();
  await expect(page).toHaveURL(first);
  await expect(page.getByText('No files yet. Upload your first CSV above.')).toBeVisible();
  await expect(page.getByText('beta-leads.csv')).toHaveCount(0);

  // The second workspace's address opens it, with its file.
  await page.goto(second);
  await expect(page.getByRole('button', { name: 'Workspace: Client Beta, Owner' })).toBeVisible();
  await expect(page.getByText('beta-leads.csv')).toBeVisible();
});
