import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { messyCsv } from '../helpers/csv.ts';
import { uniquePixelId } from '../helpers/accounts.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: `${SHOTS}/workflow-${name}.png`, fullPage: true });
};
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

test('upload, map with suggestions and a template, validate, fix, and reach a ready send', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, { firstName: 'Morgan' });
  await page.getByRole('button', { name: "Let's go" }).click();
  await expect(page.getByText('No files yet. Upload your first CSV above.')).toBeVisible();
  await shot(page, 'dashboard-empty');

  await page.getByTestId('file-input').setInputFiles(file('crm-export.csv', messyCsv({ withBadRow: true })));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await expect(page.getByText('Step 2 of 5')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('Email');
  await expect(page.getByText('Auto-Mapped').first()).toBeVisible();
  // action_source, event_name and event_time come from their own columns.
  await expect(page.getByLabel('Event time', { exact: true })).toHaveValue('event_time');
  await shot(page, 'map-columns');

  // Save the mapping as a template, clear everything, and bring it back from the template.
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Template name (max 20 characters)').fill('CRM export');
  await page.getByRole('button', { name: 'Save as new' }).click();
  await expect(page.getByText('Mapping saved as new!')).toBeVisible();
  await page.getByRole('button', { name: 'Clear All Mappings' }).click();
  await page.getByRole('button', { name: 'Yes, clear everything' }).click();
  await expect(
    page.getByText('Missing required fields: event_name, event_time, action_source'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Validation' })).toBeDisabled();
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Saved templates').selectOption({ label: 'CRM export' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText('Template applied!')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('Email');

  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page).toHaveURL(/\/verify-data\?fileId=/);
  await expect(page.getByText('Rows with errors')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('rowheader', { name: 'Row 5 has errors' })).toBeVisible();
  await expect(page.getByText(/No usable customer information/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Submission' })).toBeDisabled();
  await shot(page, 'verify-errors');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Report' }).click();
  expect((await download).suggestedFilename()).toBe('report.csv');

  await page
    .locator('[data-testid="file-input"]')
    .last()
    .setInputFiles(file('crm-export-fixed.csv', messyCsv({ withBadRow: false })));
  await expect(page.getByText('Looks great! Your data is clean and ready to submit')).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText('Match quality estimate')).toBeVisible();
  await shot(page, 'verify-clean');
  // /submit bounces back here when prepare fails; surface the prepare job's error instead of a bare URL mismatch.
  const prepared = page.waitForResponse(
    async (r) =>
      r.url().includes('/jobs/prepare') &&
      ['done', 'failed'].includes(((await r.json()) as { job?: { status: string } }).job?.status ?? ''),
  );
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  const prepareJob = ((await (await prepared).json()) as { job: { status: string; error: unknown } }).job;
  expect(prepareJob.status, JSON.stringify(prepareJob.error)).toBe('done');

  await expect(page).toHaveURL(/\/submit\?fileId=/);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('3 events', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: /Send 3 events to Meta/ }).click();
  await expect(page.getByText('Please select or save an account first')).toBeVisible();
  await page.getByLabel('Pixel ID').fill(pixel);
  await page.getByLabel('API access token', { exact: true }).fill('EAAB-test-token-1234');
  await page.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await page.getByText(/Data preview: first 3 events/).click();
  await expect(page.getByRole('rowheader', { name: 'Row 2' })).toBeVisible();
  await expect(page.getByText('hashed', { exact: true }).first()).toBeVisible();
  await shot(page, 'submit');

  await page.goto('/dashboard');
  // A corrected file keeps its first name and says it was corrected (issue 19, dashboard).
  await expect(page.getByRole('link', { name: 'crm-export.csv, corrected' })).toBeVisible();
  await expect(page.getByText('prepared', { exact: true })).toBeVisible();
  await shot(page, 'dashboard-list');
});

test('pixel accounts: add with the typed token shown and hidden, rename, delete', async ({ page }) => {
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.getByRole('link', { name: 'Manage Pixel Accounts' }).click();
  await page.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByText('Pixel ID and Access Token are required.')).toBeVisible();
  await page.getByLabel('Label (optional)').fill('Main store');
  await page.getByLabel('Pixel ID').first().fill('555666777888');
  const typed = page.getByLabel('API access token', { exact: true });
  await typed.fill('EAAB-secret-9876');
  await expect(typed).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show API access token' }).click();
  await expect(typed).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide API access token' }).click();
  await expect(typed).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Save account' }).click();
  // Once saved the token is write-only: masked, and nothing on the page holds it any more.
  await expect(page.getByLabel('Access token', { exact: true })).toHaveValue('••••••••9876');
  await expect(typed).toHaveValue('');
  await page.getByLabel('Label', { exact: true }).fill('Flagship');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Account saved').first()).toBeVisible();
  await shot(page, 'pixel-accounts');
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByText('No pixel accounts yet.')).toBeVisible();
});

test('workflow screens fit a phone', async ({ page }) => {
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.getByTestId('file-input').setInputFiles(file('phone.csv', messyCsv({ withBadRow: false })));
  await expect(page).toHaveURL(/\/map-columns/);
  await page.setViewportSize({ width: 375, height: 800 });
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  await shot(page, 'phone-map-columns');
  expect(await fits()).toBe(true);
  // Scrolled, the step pill stays in view: it is a row of the sticky header (issue 29), inside its box, not
  // behind it or over the page.
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect(page.getByTestId('step-pill')).toContainText('Step 2 of 5');
  const place = await page.evaluate(() => {
    const header = document.querySelector('header')!.getBoundingClientRect();
    const pill = document.querySelector('[data-testid="step-pill"]')!.getBoundingClientRect();
    return {
      top: Math.round(pill.top - header.top),
      bottom: Math.round(header.bottom - pill.bottom),
      header: header.top,
    };
  });
  expect(place.header).toBe(0);
  expect(place.top).toBeGreaterThanOrEqual(0);
  expect(place.bottom).toBeGreaterThanOrEqual(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  const menu = page.getByRole('button', { name: 'Clear All Mappings' });
  const box = await menu.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  await page.screenshot({ path: 'screenshots/workflow-phone-mapping-actions.png' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page.getByText('Looks great!')).toBeVisible({ timeout: 20_000 });
  await shot(page, 'phone-verify');
  expect(await fits()).toBe(true);
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await page.getByText(/Data preview: first \d+ events/).click();
  await shot(page, 'phone-submit');
  expect(await fits()).toBe(true);
  await page.goto('/pixel-accounts');
  await expect(page.getByText('No pixel accounts yet.')).toBeVisible();
  await shot(page, 'phone-pixel-accounts');
  expect(await fits()).toBe(true);
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: 'phone.csv' })).toBeVisible();
  await shot(page, 'phone-dashboard');
  expect(await fits()).toBe(true);
});

/** Uploads through the API as the logged-in browser user (fast set-up for list tests). */
async function apiUpload(page: Page, name: string, text: string) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post('/api/upload', {
    headers: { 'x-xsrf-token': xsrf },
    multipart: { file: { name, mimeType: 'text/csv', buffer: Buffer.from(text) } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).file.id as string;
}

test('dashboard: paginates 10 per page, and deleting the last file of the last page goes back a page', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  for (let i = 1; i <= 11; i++)
    await apiUpload(page, `list-${String(i).padStart(2, '0')}.csv`, messyCsv({ withBadRow: false }));
  await page.reload();
  await expect(page.getByText('11 total')).toBeVisible();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await expect(page.getByRole('link', { name: /^list-\d+\.csv$/ })).toHaveCount(10);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  // Newest first: the oldest upload is alone on page 2.
  await expect(page.getByRole('link', { name: /^list-\d+\.csv$/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete list-01.csv' }).click();
  await page.getByRole('button', { name: 'Delete file' }).click();
  await expect(page.getByText('File deleted!')).toBeVisible();
  await expect(page.getByText('10 total')).toBeVisible();
  await expect(page.getByRole('link', { name: /^list-\d+\.csv$/ })).toHaveCount(10);
  await expect(page.getByText(/Page \d of \d/)).toBeHidden();
  await expect(page.getByRole('link', { name: 'list-01.csv' })).toBeHidden();
});

test('map-columns shows the per-file settings; a corrected file with other headers shows the Validation Error panel', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  await page.getByTestId('file-input').setInputFiles(file('settings.csv', messyCsv({ withBadRow: false })));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await expect(page.getByRole('heading', { name: 'File settings' })).toBeVisible();
  await expect(page.getByLabel('Time zone for dates without one')).toHaveValue('UTC');
  await expect(page.getByLabel('Dates like 03/04/2026 mean')).toHaveValue('MDY');
  await expect(page.getByLabel('Country code for phones without one')).toHaveValue('US');
  // Each column choice shows a sample value.
  await expect(
    page
      .getByLabel('Email', { exact: true })
      .locator('option', { hasText: 'Email — e.g. Ann.Lee@Example.com' }),
  ).toHaveCount(1);
  await page.getByLabel('Country code for phones without one').selectOption('GB');
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  // The setting is applied: read as British numbers, the two US phones without a country code cannot be used,
  // which is a warning, never "clean" (decision 0055).
  await expect(page.getByText("2 phone numbers can't be used: not a valid phone number")).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText('Looks great! Your data is clean and ready to submit')).toHaveCount(0);

  await page
    .getByTestId('file-input')
    .last()
    .setInputFiles(file('other.csv', 'mail,when\r\na@b.co,2026-11-21\r\n'));
  await expect(page.getByRole('heading', { name: 'Validation Error' })).toBeVisible({ timeout: 20_000 });
  await expect(
    page.getByText(
      "Your file headers don't match your mappings. Please reupload a CSV file with the correct headers or return to the mappings page to fix the mappings.",
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Submission' })).toBeDisabled();
  await shot(page, 'verify-header-mismatch');
  await page.getByRole('link', { name: 'Return to Mapping' }).click();
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await expect(page.getByLabel('Country code for phones without one')).toHaveValue('GB');
  await expect(
    page.getByText(
      'Some mappings were removed because their corresponding headers are no longer in the uploaded file.',
    ),
  ).toBeVisible();
});
