import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { exportCsv, exportHeaders, shopifyOrderRows } from '../helpers/exports.ts';

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
const shot = async (page: Page, name: string, fullPage = true) => {
  for (const [w, h] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/mapping-${name}-${w}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The Shopify order export's key columns as suggested on arrival. */
const SHOPIFY_SUGGESTED = {
  Email: 'Email',
  'Event time': 'Paid at',
  Currency: 'Currency',
  Value: 'Total',
  'Content IDs': 'Lineitem sku',
  City: 'Billing City',
  'Zip / postal code': 'Billing Zip',
  'State / province': 'Billing Province',
  Country: 'Billing Country',
  Phone: 'Phone',
  'Order ID': 'Id',
};

test('a real Shopify orders export is mapped on arrival, and nothing is guessed wrong', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpAndVerify(page, { firstName: 'Sam' });
  await page.getByRole('button', { name: "Let's go" }).click();
  const headers = exportHeaders('Shopify orders');
  await page
    .getByTestId('file-input')
    .setInputFiles(file('orders_export.csv', exportCsv(headers, shopifyOrderRows(3))));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  for (const [label, column] of Object.entries(SHOPIFY_SUGGESTED)) {
    await expect(field(page, label), label).toHaveValue(column);
  }
  // Shopify's "Name" is the order number and "Source" the sales channel: neither is suggested for anything.
  await expect(page.getByLabel('Event name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Action source', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Last name', { exact: true })).toHaveCount(0);
  // Labels first, Meta's key beside them; the File settings card is in view without scrolling.
  await expect(page.getByText('event_time', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'File settings' })).toBeInViewport();
  await shot(page, 'shopify-orders');
});

test('a template whose columns are missing from the file keeps the suggestions and names the columns', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpAndVerify(page, { firstName: 'Tess' });
  await page.getByRole('button', { name: "Let's go" }).click();

  // Map a full Shopify export and save it as a template.
  const full = exportHeaders('Shopify orders');
  await page
    .getByTestId('file-input')
    .setInputFiles(file('orders_export.csv', exportCsv(full, shopifyOrderRows(2))));
  await expect(field(page, 'Order ID')).toHaveValue('Id');
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Template name (max 20 characters)').fill('Shopify orders');
  await page.getByRole('button', { name: 'Save as new' }).click();
  await expect(page.getByText('Mapping saved as new!')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/dashboard');

  // A trimmed export: no "Paid at", "Lineitem sku", "Billing Province" or "Id".
  const trimmed = [
    'Name',
    'Email',
    'Created at',
    'Currency',
    'Total',
    'Billing Name',
    'Billing City',
    'Billing Zip',
    'Billing Country',
    'Phone',
  ];
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles(file('orders_trimmed.csv', exportCsv(trimmed, shopifyOrderRows(2))));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await expect(field(page, 'Event time')).toHaveValue('Created at');

  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByLabel('Saved templates').selectOption({ label: 'Shopify orders' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  // The spec's toast; the page names the missing columns (issue 29).
  await expect(page.getByText('Template applied!')).toBeVisible();
  const note = page.getByRole('region', { name: 'Template applied' });
  for (const column of ['Paid at', 'Lineitem sku', 'Billing Province', 'Id'])
    await expect(note).toContainText(`column "${column}" is not in this file`);
  await page.keyboard.press('Escape');
  await shot(page, 'template-toast', false);
  // The field whose template column is missing keeps its suggestion; the others follow the template.
  await expect(field(page, 'Event time')).toHaveValue('Created at');
  await expect(field(page, 'Email')).toHaveValue('Email');
  await expect(field(page, 'Value')).toHaveValue('Total');
  await expect(field(page, 'Zip / postal code')).toHaveValue('Billing Zip');
  await shot(page, 'template-missing-columns');
});
