import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';
import { exportCsv, exportHeaders, shopifyOrderRows } from '../helpers/exports.ts';
import { DESKTOP, PHONE, SHOTS } from '../helpers/shots.ts';

// Decision 0097: a Shopify export's whole "Billing Name" feeds first and last name, its empty "Phone" gives way
// to "Billing Phone" (and the mapping screen says both); amounts with a decimal comma in a ";" file are told.
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function shots(page: Page, name: string) {
  for (const [size, vp] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(vp);
    await page.screenshot({ path: `${SHOTS}/mapping-names-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

async function noSeriousAxe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${screen}`).toEqual([]);
}

async function start(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await signUpAndVerify(page, { firstName: name });
  await page.getByRole('button', { name: "Let's go" }).click();
}

test('a Shopify export: Billing Name is split into first and last name, Billing Phone chosen over an empty Phone', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await start(page, 'Noor');
  const names = ['Dr. Ann van der Berg', 'García Márquez, Gabriel', 'Siobhán O’Brien'];
  const rows = shopifyOrderRows(3).map((r, i) => ({
    ...r,
    Phone: '',
    'Billing Phone': ['+31 6 12345678', '+34 612 345 678', '+44 7700 900123'][i]!,
    'Billing Name': names[i]!,
    'Shipping Name': names[i]!,
  }));
  await page
    .getByTestId('file-input')
    .setInputFiles(file('orders_export.csv', exportCsv(exportHeaders('Shopify orders'), rows)));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  // A loaded machine can take a while to answer the headers.
  await expect(page.getByRole('heading', { name: 'Map your columns' })).toBeVisible({ timeout: 60_000 });

  // The whole name feeds first and last name, with the first row's split shown.
  const fullName = field(page, 'Full name');
  await expect(fullName).toHaveValue('Billing Name');
  const row = page.getByRole('listitem').filter({ has: fullName });
  await expect(row).toContainText('→ First name first_name and Last name last_name');
  await expect(row.getByTestId('name-split-example')).toHaveText(
    'e.g. "Dr. Ann van der Berg" → first name Ann, last name van der Berg',
  );
  await expect(field(page, 'First name')).toHaveCount(0);
  // Phone is empty in every row: Billing Phone is chosen, and the screen says why.
  await expect(field(page, 'Phone')).toHaveValue('Billing Phone');
  await expect(page.getByRole('list', { name: 'Why these columns were suggested' })).toHaveText(
    'Billing Phone chosen over Phone: Phone is empty in every row.',
  );
  await noSeriousAxe(page, 'map columns with a whole name');
  await shots(page, 'mapping');

  // The split can be undone: first and last name are then mapped one column each.
  await row.getByRole('button', { name: 'Map first and last name separately' }).click();
  await expect(fullName).toHaveCount(0);
  await expect(field(page, 'First name')).toHaveValue('');
  await expect(field(page, 'Last name')).toHaveValue('');
  await page.getByRole('button', { name: 'Mapping Actions' }).click();
  await page.getByRole('button', { name: 'Apply Suggestions' }).click();
  await page.keyboard.press('Escape');
  // First and last name rows are in the list (empty): the whole name is suggested again, as nothing names them.
  await expect(field(page, 'Full name')).toHaveValue('Billing Name');
});

test('a ";" file with decimal commas: the validation page tells how amounts were read', async ({ page }) => {
  test.setTimeout(300_000);
  await start(page, 'Daan');
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  const text = [
    'sep=;',
    'email;Full Name;event_name;event_time;action_source;value;currency',
    `sanne@example.nl;Sanne van den Broek;Purchase;${when};physical_store;12,50;EUR`,
    `daan@example.nl;Daan de Vries;Purchase;${when};physical_store;1.234,50;EUR`,
    `eva@example.nl;Eva Jansen;Purchase;${when};physical_store;7,95;EUR`,
  ].join('\r\n');
  await page.getByTestId('file-input').setInputFiles(file('bestellingen.csv', text));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  // A loaded machine can take a while to answer the headers.
  await expect(page.getByRole('heading', { name: 'Map your columns' })).toBeVisible({ timeout: 60_000 });
  await expect(field(page, 'Full name')).toHaveValue('Full Name');
  await expect(field(page, 'Value')).toHaveValue('value');
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page).toHaveURL(/\/verify-data\?fileId=/);

  const notices = page.getByRole('region', { name: /^How the file was read/ });
  await expect(notices).toBeVisible({ timeout: 30_000 });
  await expect(notices.getByRole('listitem')).toHaveText([
    /^Separator line: the first line, "sep=;", is Excel's note of the column separator/,
    'Amounts use a decimal comma: "12,50" was read as 12.50 (3 amounts in all).',
    'Amounts use "." between thousands: "1.234,50" was read as 1234.50.',
  ]);
  await noSeriousAxe(page, 'verify data with amount notices');
  await shots(page, 'validation');
});
