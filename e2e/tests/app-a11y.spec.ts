import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_PASSWORD, signUpAndVerify, uniqueEmail } from '../helpers/auth.ts';
import { messyCsv } from '../helpers/csv.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { uniquePixelId } from '../helpers/accounts.ts';

/** This journey's own pixel (helpers/accounts.ts). */
let pixel = uniquePixelId();
test.beforeEach(() => {
  pixel = uniquePixelId();
});

// The signed-in app's screens, walked as a user does, with axe on each state (serious and critical violations
// must be empty, as on the public pages) and the core flow driven from the keyboard.

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL!); // set by playwright.config.ts
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());

const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/**
 * Axe on the page as it is now; a failure names the screen, the rule and the elements. Soft: one run lists all.
 * A prohibited ARIA attribute on an element with text comes back as 'needs review', not as a violation: counted too.
 */
async function axe(page: Page, screen: string) {
  // A toast fades in and out: axe mid-fade reads its text blended with the page, a contrast failure no reader
  // meets (seen on a slow machine). Its progress bar, a child, animates for as long as it shows: not waited for.
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.Toastify__toast')).every((t) =>
      t.getAnimations().every((a: Animation) => a.playState !== 'running'),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const found = [...results.violations, ...results.incomplete.filter((v) => v.id === 'aria-prohibited-attr')];
  const serious = found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(serious, `axe on ${screen}`).toEqual([]);
  const minor = results.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  // Not failures, but worth seeing in the run's output.
  if (minor.length)
    console.log(`axe, ${screen}: ${minor.map((v) => `${v.id} (${v.impact}) ${v.nodes.length}×`).join(', ')}`);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/app-a11y-${name}.png`, fullPage: true });

/** Presses Tab (or Shift+Tab) until `target` has focus; fails when it is not reached in `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 80, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with ${back ? 'Shift+' : ''}Tab`).toBeFocused({ timeout: 1 });
}

/**
 * The focused element shows a focus indicator (its pixels, with a margin for an outline or ring, differ from the
 * same element unfocused) and is not hidden under anything else (sticky bars, toasts): WCAG 2.4.7 and 2.4.11.
 */
async function expectFocusVisible(page: Page) {
  const focused = page.locator(':focus');
  const what = await focused.evaluate(
    (el) => `${el.tagName.toLowerCase()} "${el.textContent?.trim().slice(0, 40)}"`,
  );
  expect(await coveredBy(focused), `focused ${what} is hidden under another element`).toBeNull();
  await page.waitForTimeout(200); // colour transitions
  const box = (await focused.boundingBox())!;
  const clip = { x: box.x - 5, y: box.y - 5, width: box.width + 10, height: box.height + 10 };
  const withFocus = await page.screenshot({ clip });
  const handle = await focused.elementHandle();
  await page.evaluate(() => (document.activeElement as HTMLElement).blur());
  await page.waitForTimeout(200);
  const without = await page.screenshot({ clip });
  await handle!.evaluate((el) => (el as HTMLElement).focus());
  expect(withFocus.equals(without), `a focus indicator on ${what}`).toBe(false);
}

/** What covers the middle of `target` (a sticky bar, a toast), or null when it is on top. */
function coveredBy(target: Locator): Promise<string | null> {
  return target.evaluate((el) => {
    const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return hit && (hit === el || el.contains(hit)) ? null : `${hit?.tagName} ${hit?.className}`;
  });
}

/** A modal dialog that is open has focus inside it. */
async function expectFocusInDialog(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await expect
    .poll(() => dialog.evaluate((d) => d.contains(document.activeElement)), {
      message: `focus in dialog ${title}`,
    })
    .toBe(true);
  return dialog;
}

/** A dialog opened from the keyboard: it takes focus and passes axe, Escape closes it, focus goes back. */
async function dialogByKeyboard(page: Page, opener: Locator, title: string) {
  await tabTo(page, opener);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expectFocusInDialog(page, title);
  await axe(page, `dialog ${title}`);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test('guest screens: login, signup and forgot password', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await axe(page, 'login');
  // Keyboard: the form is reached with Tab, filled and sent with Enter.
  await tabTo(page, page.getByLabel('Email'));
  await expectFocusVisible(page);
  await page.keyboard.type('nobody@example.com');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type('Wrong-pass-1!');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
  await axe(page, 'login with an error');

  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await axe(page, 'signup');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('First name').fill('Alex');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await axe(page, 'signup with a password error');

  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await axe(page, 'forgot password');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(uniqueEmail('forgot'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /./ }).first()).toBeVisible();
  await axe(page, 'forgot password, sent');
});

test('core flow by keyboard: dashboard, map, validate, submit and summary', async ({ page }) => {
  test.setTimeout(300_000);
  graph.reset();
  await signUpAndVerify(page, { firstName: 'Kim' });

  // The beta welcome dialog takes focus, passes axe and closes on Escape.
  await expectFocusInDialog(page, 'Welcome to the Backsignal beta');
  await axe(page, 'dashboard with the beta dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('No files yet. Upload your first CSV above.')).toBeVisible();
  await axe(page, 'dashboard, empty');

  // The drop zone is a button: Tab reaches it, Enter opens the file picker.
  const drop = page.getByRole('button', { name: /Drop your CSV here/ });
  await tabTo(page, drop);
  await expectFocusVisible(page);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(file('keyboard.csv', messyCsv({ withBadRow: true })));
  // The upload's toast closes itself after 5 s, when its progress bar's animation ends, and the checks of it below
  // can take longer on a busy machine: its bar is held still, so the toast stays until it is closed.
  await page.addStyleTag({ content: '.Toastify__progress-bar { animation-play-state: paused !important; }' });

  // Map columns.
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('Email');
  // The upload's toast sits below the sticky header, whose links stay in reach while it shows, on a phone too
  // (where they are behind the Menu button).
  await expect(page.getByText('Uploaded: keyboard.csv')).toBeVisible();
  const header = page.getByRole('banner');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 720 });
    const links =
      width < 640
        ? [header.getByRole('button', { name: 'Menu' })]
        : [header.getByRole('link', { name: 'Account' }), header.getByRole('button', { name: 'Logout' })];
    for (const link of links)
      await expect.poll(() => coveredBy(link), `header link at ${width} px under the toast`).toBeNull();
  }
  // Alt+T focuses the notifications (spec §9); the toast's close button shows its focus.
  await page.keyboard.press('Alt+T');
  const toast = page.getByRole('alert').filter({ hasText: 'Uploaded: keyboard.csv' });
  await expect(page.getByRole('alert').first()).toBeFocused();
  const close = toast.getByRole('button', { name: 'close' });
  // Its × stands out from the toast at 3:1 at least (WCAG 1.4.11), focused or not.
  const contrast = () =>
    close.evaluate((el) => {
      const s = getComputedStyle(el);
      const [r, g, b] = s.color.match(/\d+/g)!.map(Number);
      const a = Number(s.opacity);
      const lum = (c: number) => {
        const v = (c * a + 255 * (1 - a)) / 255; // over the toast's white
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 1.05 / (0.2126 * lum(r!) + 0.7152 * lum(g!) + 0.0722 * lum(b!) + 0.05);
    });
  expect.soft(await contrast(), 'contrast of the toast close button').toBeGreaterThanOrEqual(3);
  await tabTo(page, close, { max: 6 });
  await expectFocusVisible(page);
  // The app's focus outline, not only a change of opacity.
  expect.soft(await close.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Uploaded: keyboard.csv')).toBeHidden();
  await axe(page, 'map columns');
  await shot(page, 'map-columns');
  // Every stop from the first mapped field to Continue is in sight: none under the sticky Continue bar.
  await page.getByRole('button', { name: 'Mapping Actions' }).focus();
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const hidden = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const b = el.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40);
      return { name, hidden: !(hit && (hit === el || el.contains(hit))) };
    });
    expect.soft(hidden.hidden, `focused "${hidden.name}" is hidden under another element`).toBe(false);
    if (hidden.name === 'Continue to Validation') break;
  }
  // A hardcoded value from a select (action_source) and a free-text one (an added field).
  const source = page
    .getByRole('listitem')
    .filter({ has: page.getByLabel('Action source', { exact: true }) });
  await source.getByRole('button', { name: 'Use hardcoded value instead' }).click();
  await page.getByLabel('Action source', { exact: true }).selectOption('physical_store');
  await page.getByLabel('Search fields').fill('order_id');
  await page.getByRole('button', { name: 'Add order_id to Mapped Fields' }).press('Enter');
  await expect(page.getByLabel('Order ID', { exact: true })).toBeFocused();
  const order = page.getByRole('listitem').filter({ has: page.getByLabel('Order ID', { exact: true }) });
  await order.getByRole('button', { name: 'Use hardcoded value instead' }).press('Space');
  await page.getByLabel('Order ID', { exact: true }).fill('A-1');
  await axe(page, 'map columns with hardcoded values');
  await shot(page, 'map-columns-hardcoded');
  await order.getByRole('button', { name: 'Remove order_id' }).press('Enter');
  await page.getByLabel('Search fields').fill('');

  // The Mapping Actions menu: Enter opens it, Escape closes it and focus goes back to its button.
  const actions = page.getByRole('button', { name: 'Mapping Actions' });
  await actions.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Apply Suggestions' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Apply Suggestions' })).toBeFocused();
  await expectFocusVisible(page);
  await page.getByRole('button', { name: 'Clear All Mappings' }).click();
  await axe(page, 'map columns, Mapping Actions menu with the clear confirmation');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Apply Suggestions' })).toBeHidden();
  await expect(actions).toBeFocused();

  // Continue is reached with Tab (the skip button jumps over the mappable fields) and pressed with Enter.
  const cont = page.getByRole('button', { name: 'Continue to Validation' });
  await expect(cont).toBeEnabled();
  await page.getByLabel('Email', { exact: true }).focus();
  await tabTo(page, page.getByRole('button', { name: 'Skip to the Continue button' }), { max: 60 });
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(cont).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');

  // Verify data with errors. Focus has moved from the pressed button to the new page's heading.
  await expect(page).toHaveURL(/\/verify-data\?fileId=/);
  await expect(page.locator('#main h1')).toBeFocused();
  await expect(page.getByText('Rows with errors', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Continue to Submission' })).toBeDisabled();
  await axe(page, 'verify data with errors');
  await shot(page, 'verify-errors');
  await page.setViewportSize({ width: 375, height: 800 });
  await axe(page, 'verify data with errors, phone');
  await shot(page, 'phone-verify-errors');
  await page.setViewportSize({ width: 1280, height: 720 });
  await tabTo(page, page.getByRole('button', { name: 'Download Report' }));
  await expectFocusVisible(page);
  // The corrected-file box is a button too.
  await tabTo(page, page.getByRole('button', { name: /Upload a corrected CSV/ }));
  await expectFocusVisible(page);
  const fixed = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await fixed).setFiles(file('keyboard-fixed.csv', messyCsv({ withBadRow: false })));
  await expect(page.getByText('Looks great! Your data is clean and ready to submit')).toBeVisible({
    timeout: 20_000,
  });
  await axe(page, 'verify data, clean');
  await shot(page, 'verify-clean');
  const toSubmit = page.getByRole('button', { name: 'Continue to Submission' });
  await tabTo(page, toSubmit);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');

  // Submit with the inline pixel account form.
  await expect(page).toHaveURL(/\/submit\?fileId=/);
  await expect(page.locator('#main h1')).toBeFocused();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Pixel ID')).toBeVisible();
  await axe(page, 'submit with the pixel account form');
  await tabTo(page, page.getByLabel('Pixel ID'));
  await expectFocusVisible(page);
  await page.keyboard.type(pixel);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('API access token', { exact: true })).toBeFocused();
  await page.keyboard.type('EAAB-a11y-token-4321');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show API access token' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Save account' })).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Account saved')).toBeVisible();
  // The preview opens from the keyboard.
  const previewToggle = page.getByText(/Data preview: first \d+ events/);
  await tabTo(page, previewToggle);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(page.getByText('hashed', { exact: true }).first()).toBeVisible();
  await axe(page, 'submit with an account and the preview open');
  await shot(page, 'submit');
  const send = page.getByRole('button', { name: /Send 3 events to Meta/ });
  await tabTo(page, send);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');

  // Summary of the finished run.
  await expect(page).toHaveURL(/\/summary\?fileId=/);
  await expect(page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({ timeout: 30_000 });
  await axe(page, 'summary, finished');
  // The <summary> takes focus, not the heading text inside it.
  const batches = page.locator('summary', { hasText: 'Batch details' });
  await tabTo(page, batches);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Batch 1', { exact: true })).toBeVisible();
  await axe(page, 'summary with the batch details open');
  await shot(page, 'summary');
  await tabTo(page, page.getByRole('link', { name: 'Back to Dashboard' }));
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');

  // Dashboard with a file, and the delete dialog: focus moves in, Escape closes, focus returns.
  await expect(page).toHaveURL(/\/dashboard$/);
  // The corrected upload replaced the file: one file, its name kept, marked corrected.
  await expect(page.getByRole('link', { name: 'keyboard.csv, corrected' })).toBeVisible();
  await axe(page, 'dashboard with a file');
  await shot(page, 'dashboard-list');
  await dialogByKeyboard(
    page,
    page.getByRole('button', { name: 'Delete keyboard.csv' }),
    'Delete this file?',
  );
});

test('a send with a failed batch: Completed with Errors', async ({ page }) => {
  test.setTimeout(180_000);
  graph.reset();
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();
  const rows = ['Email,event_name,event_time,action_source'];
  const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
  // Enough batches that the list of sent ones scrolls.
  for (let r = 2; r < 1002; r++)
    rows.push(`buyer${r}@example.com,${r === 5 ? 'PoisonRow' : 'Lead'},${when},physical_store`);
  await page.getByTestId('file-input').setInputFiles(file('poison.csv', rows.join('\r\n') + '\r\n'));
  await expect(page).toHaveURL(/\/map-columns\?fileId=/);
  await page.getByRole('button', { name: 'Continue to Validation' }).click();
  await expect(page.getByText('Looks great!')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Continue to Submission' }).click();
  await expect(page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Pixel ID').fill(pixel);
  await page.getByLabel('API access token', { exact: true }).fill('EAAB-a11y-token-4321');
  await page.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(page.getByRole('heading', { name: 'Completed with Errors' })).toBeVisible({ timeout: 30_000 });
  await axe(page, 'summary, completed with errors');
  await tabTo(page, page.getByRole('button', { name: 'Download all failed rows' }));
  await expectFocusVisible(page);
  await page.getByText('Batch details').click();
  await expect(page.getByText('Batch 9', { exact: true })).toBeAttached();
  await tabTo(page, page.getByRole('button', { name: /Download failed rows of batch/ }));
  await expectFocusVisible(page);
  await axe(page, 'summary, completed with errors, batch details open');
  await shot(page, 'summary-errors');
});

test('account settings and pixel accounts', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpAndVerify(page);
  await page.getByRole('button', { name: "Let's go" }).click();

  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await axe(page, 'account, My Profile');
  const profileTab = page.getByRole('tab', { name: 'My Profile' });
  await tabTo(page, profileTab);
  await expectFocusVisible(page);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Change Password' })).toBeFocused();
  await expect(page.getByLabel('Current password')).toBeVisible();
  await axe(page, 'account, Change Password');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Current password')).toBeFocused();
  await page.keyboard.type(E2E_PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('Another-Pass-2027!');
  await page.getByLabel('Confirm new password').fill('Mismatch-2027!');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tabpanel').getByRole('alert')).toHaveText('Passwords do not match.');
  await axe(page, 'account, Change Password with an error');
  await dialogByKeyboard(
    page,
    page.getByRole('button', { name: 'Delete my account' }),
    'Delete your account?',
  );

  await page.goto('/pixel-accounts');
  await expect(page.getByText('No pixel accounts yet.')).toBeVisible();
  await axe(page, 'pixel accounts, empty');
  await tabTo(page, page.getByLabel('Label (optional)'));
  await expectFocusVisible(page);
  await page.keyboard.type('Main store');
  await page.keyboard.press('Tab');
  await page.keyboard.type('555666777888');
  await page.keyboard.press('Tab');
  await page.keyboard.type('EAAB-secret-9876');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Access token', { exact: true })).toHaveValue('••••••••9876');
  await axe(page, 'pixel accounts with an account');
  // The saved token is write-only; a replacement being typed can be shown and hidden from the keyboard.
  const replace = page.getByLabel('Replace token', { exact: true });
  await tabTo(page, replace);
  await page.keyboard.type('EAAB-new-5555');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show Replace token' })).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(replace).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide Replace token' })).toBeFocused();
  await axe(page, 'pixel accounts, typed token shown');
  await shot(page, 'pixel-accounts');
  await dialogByKeyboard(
    page,
    page.getByRole('button', { name: 'Delete', exact: true }),
    'Delete this pixel account?',
  );
});
