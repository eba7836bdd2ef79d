import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';

/**
 * Issue 29, "Rules Meta would refuse, caught at mapping" and "no dead ends" on the validation page: website events
 * without event_source_url told at mapping and once for the file; refund rows wait for a skip-or-send choice; a
 * template's changes listed with an Undo; the skip offer never beside "You must fix all errors".
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 19) + 'Z';
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** Both sizes, the whole page; the page must not scroll sideways. */
async function shots(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/rules-${name}-${w}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(
      true,
    );
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${screen}`).toEqual([]);
}

async function upload(page: Page, name: string, csv: string) {
  await page.getByTestId('file-input').first().setInputFiles(file(name, csv));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  // The mapping screen loads its file's headers first (slow on a loaded machine).
  await expect(page.getByRole('button', { name: 'Continue to Validation' })).toBeVisible({ timeout: 60_000 });
}

async function continueToValidation(page: Page) {
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page).toHaveURL(/\/verify-data\?fileId=/);
}

test('a website file without event_source_url is told at mapping, and once for the file at validation', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  const rows = Array.from(
    { length: 22 },
    (_, i) => `c${i}@example.com,Purchase,${iso(1)},website,${20 + i}.00,USD`,
  );
  await upload(
    page,
    'web-orders.csv',
    ['Email,event_name,event_time,action_source,Value,Currency', ...rows].join('\r\n'),
  );
  await expect(field(page, 'Action source')).toHaveValue('action_source');
  const notice = page.getByRole('region', { name: 'Meta will refuse these events as mapped' });
  await expect(notice).toContainText(
    'The action_source column "action_source" reads website in every sample row. Meta needs event_source_url',
  );
  await axe(page, 'mapping with the source rule');
  await shots(page, 'mapping-website-warning');

  // A fixed website source cannot be right for any row: Continue waits.
  await page
    .getByRole('listitem')
    .filter({ has: field(page, 'Action source') })
    .getByRole('button', { name: 'Use hardcoded value instead' })
    .click();
  await field(page, 'Action source').selectOption('website');
  await expect(
    page.getByRole('status').filter({ hasText: /^action_source is website for every row\./ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Validation' })).toBeDisabled();
  await shots(page, 'mapping-website-fixed');

  // Back to the column: validation says it once, for the file, with the way back to the mapping.
  await page
    .getByRole('listitem')
    .filter({ has: field(page, 'Action source') })
    .getByRole('button', { name: 'Select CSV column instead' })
    .click();
  await field(page, 'Action source').selectOption('action_source');
  await continueToValidation(page);
  const panel = page.getByRole('heading', { name: 'Validation Error' });
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText(
      /^Every row is a website event\. Meta needs event_source_url(.*) for website events: map a column or set a fixed value for event_source_url/,
    ),
  ).toBeVisible();
  await expect(page.getByText('Website events need event_source_url.')).toHaveCount(0);
  await expect(page.getByText(/correct the 22 rows/i)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Return to Mapping' })).toBeVisible();
  await axe(page, 'validation error for the source rule');
  await shots(page, 'validation-website-file-level');
});

test('refund rows wait for a choice; skipped, /submit says how many', async ({ page }) => {
  test.setTimeout(300_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  const csv = [
    'Email,Phone,event_name,event_time,action_source,Value,Currency',
    `ann@example.com,+16505551212,Purchase,${iso(1)},physical_store,120.00,usd`,
    `bob@example.com,+16505551213,Purchase,${iso(1)},physical_store,-40.00,USD`,
    `cat@example.com,+16505551214,Purchase,${iso(2)},physical_store,-15.50,USD`,
    `dan@example.com,+16505551215,Purchase,${iso(2)},physical_store,60,USD`,
  ].join('\r\n');
  await upload(page, 'orders-with-refunds.csv', csv);
  await continueToValidation(page);
  const choice = page.getByRole('region', { name: '2 Purchase rows with a negative value (refunds)' });
  await expect(choice).toBeVisible({ timeout: 30_000 });
  // "usd" is USD: not a correction.
  await expect(page.getByText('Rows auto-corrected').locator('..')).toContainText('0');
  const cont = page.getByRole('button', { name: 'Continue to Submission' });
  await expect(cont).toBeDisabled();
  await expect(
    page.getByText('Choose whether to skip or send the 2 refund rows above before continuing.'),
  ).toBeVisible();
  await expect(page.getByText('Looks great! Your data is clean and ready to submit')).toHaveCount(0);
  await axe(page, 'validation with refund rows');
  await shots(page, 'validation-refunds-ask');
  await choice.getByRole('button', { name: 'Skip the 2 refund rows' }).click();
  await expect(choice.getByRole('button', { name: 'Skip the 2 refund rows' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(cont).toBeEnabled();
  await shots(page, 'validation-refunds-skip');
  await cont.click();
  await expect(page).toHaveURL(/\/submit\?fileId=/);
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText('2 refund rows (Purchase with a negative value) skipped, not sent.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Send 2 events to Meta/ })).toBeVisible();
});

test('applying a template lists what it changed and left unmapped, with an Undo', async ({ page }) => {
  test.setTimeout(300_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  const first = [
    'Email,Phone,event_name,event_time,action_source,Total,Currency',
    `ann@example.com,+16505551212,Purchase,${iso(1)},physical_store,12,USD`,
  ];
  await upload(page, 'shop-a.csv', first.join('\r\n'));
  await expect(field(page, 'Email')).toHaveValue('Email');
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Template name (max 20 characters)').fill('Shopify orders');
  await page.getByRole('button', { name: 'Save as new' }).click();
  await expect(page.getByText('Mapping saved as new!')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/dashboard');

  // The next export: the email is in another column, and there is no Phone.
  const second = [
    'Email,Customer Email,event_name,event_time,action_source,Total,Currency',
    `old@example.com,ann@example.com,Purchase,${iso(1)},physical_store,12,USD`,
  ];
  await upload(page, 'shop-b.csv', second.join('\r\n'));
  await field(page, 'Email').selectOption('Customer Email');
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Saved templates').selectOption({ label: 'Shopify orders' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText('Template applied!')).toBeVisible();
  await page.keyboard.press('Escape');
  const note = page.getByRole('region', { name: 'Template applied' });
  await expect(note.getByRole('status')).toHaveText(
    'Template "Shopify orders" applied: 1 field changed, 1 field left unmapped.',
  );
  await expect(note.getByRole('listitem')).toHaveText([
    'email: Customer Email → Email',
    'phone: column "Phone" is not in this file (left unmapped)',
  ]);
  await expect(field(page, 'Email')).toHaveValue('Email');
  await axe(page, 'mapping after a template');
  await shots(page, 'mapping-template-applied');
  await note.getByRole('button', { name: 'Undo template' }).click();
  await expect(field(page, 'Email')).toHaveValue('Customer Email');
  await expect(note.getByRole('status')).toHaveText(
    'Template "Shopify orders" undone: the mapping is back to what it was before.',
  );
  await expect(note).toBeFocused();
  await shots(page, 'mapping-template-undone');
});

test('the validation page with a skip offer does not contradict itself, and its counts agree', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  const good = (i: number) =>
    `p${i}@example.com,(650)555-${String(1000 + i)},Lead,${iso(1)},physical_store,,`;
  const csv = [
    'Email,Phone,event_name,event_time,action_source,Value,Currency',
    ...Array.from({ length: 14 }, (_, i) => good(i)),
    ...Array.from({ length: 4 }, () => `not-an-email,,Lead,${iso(1)},physical_store,,`),
  ].join('\r\n');
  await upload(page, 'leads.csv', csv);
  await continueToValidation(page);
  await expect(page.getByRole('button', { name: 'Skip the 4 rows with errors and continue' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText(/You must fix all errors/)).toHaveCount(0);
  await expect(page.getByText(/^To continue, skip the 4 rows with errors above/)).toBeVisible();
  // 14 phones get their country code; the preview holds some of them and says so.
  await expect(page.getByText('Rows auto-corrected').locator('..')).toContainText('14');
  await expect(page.getByRole('button', { name: /^Corrections \(14 rows; \d+ shown\)$/ })).toBeVisible();
  await axe(page, 'validation with the skip offer');
  await shots(page, 'validation-skip-offer');
});
