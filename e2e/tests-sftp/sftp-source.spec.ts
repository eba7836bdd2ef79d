import { expect, test, type Page } from '@playwright/test';
import { savePixelAccount } from '../helpers/accounts.ts';
import { signUpAndVerify } from '../helpers/auth.ts';
import { DESKTOP, bothSizes } from '../helpers/shots.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { startSftpServer, type SftpServer } from '../../apps/api/test/sftp-server.ts';

// Issue 23: an SFTP folder connected in the wizard as a new owner would, each dropped file sent once.
// Debian's sshd on a loopback port with a throwaway chrooted user (needs root: see playwright.sftp.config.ts).
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL ?? 'http://127.0.0.1:3199');
let graph: FakeGraph;
let sftp: SftpServer;

test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
  sftp = await startSftpServer();
});
test.afterAll(async () => {
  await sftp?.close();
  await graph?.close();
});

const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
/** A shop's export: one row per buyer, `tag` keeping each file's addresses apart. */
const exportCsv = (tag: string, n: number) =>
  [
    'Email,Event Name,Event Time,Action Source,Value,Currency',
    ...Array.from(
      { length: n },
      (_, i) => `${tag}${i + 1}@example.com,Purchase,${when},physical_store,${20 + i}.90,USD`,
    ),
  ].join('\r\n') + '\r\n';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

const shots = (page: Page, name: string) => bothSizes(page, `sources-sftp-${name}`);

const sentIds = () => graph.requests.flatMap((r) => r.events.map((e) => e.event_id));

test('an SFTP source made in the wizard sends each dropped file once, a new one alone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signUpAndVerify(page);
  await savePixelAccount(page);
  graph.reset();
  sftp.put('shop/orders-1.csv', exportCsv('first', 4), minutesAgo(10));
  sftp.put('shop/readme.txt', 'not an export', minutesAgo(5));

  // The dashboard's one-time welcome dialog is another journey's subject.
  await page.evaluate(() => localStorage.setItem('backsignal:beta-welcome-seen', '1'));
  await page.goto('/sources/new');
  await page.getByRole('button', { name: /^SFTP/ }).click();
  await expect(page.getByRole('heading', { name: 'Connect: SFTP' })).toBeFocused();

  // Nothing filled in: the fields say what they need.
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText('Enter the server name.')).toBeVisible();
  await expect(page.getByText('Enter the user name.')).toBeVisible();
  await expect(page.getByText('Enter the password.')).toBeVisible();
  await expect(page.getByText('Enter a port from 1 to 65535.')).toHaveCount(0);
  await shots(page, 'missing-fields');

  // A cleared port stays empty and is named, instead of quietly becoming 22.
  await page.getByLabel('Port', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText('Enter a port from 1 to 65535.')).toBeVisible();
  await expect(page.getByLabel('Port', { exact: true })).toHaveValue('');
  await shots(page, 'missing-port');

  await page.getByLabel('Server', { exact: true }).fill(sftp.host);
  await page.getByLabel('Port', { exact: true }).fill(String(sftp.port));
  await page.getByLabel('User name', { exact: true }).fill(sftp.user);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByLabel('Folder', { exact: true }).fill(`${sftp.folder}/shop`);
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `The server refused the user name or password for user "${sftp.user}".`,
  );
  await expect(page.getByRole('button', { name: 'Continue to mapping' })).toBeDisabled();
  await shots(page, 'test-fetch-failed');

  await page.getByLabel('Password', { exact: true }).fill(sftp.password);
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText('Fetched 4 rows')).toBeVisible();
  await expect(page.getByText(/^Read /)).toContainText(`Read ${sftp.folder}/shop/orders-1.csv (changed `);
  await expect(page.getByText(/^Read /)).toContainText('It is the one file waiting to be sent.');
  await expect(page.getByText('first1@example.com')).toBeVisible();
  // First contact: the key the server showed is the one saved with the source (trust on first use).
  const hostKey = sftp.hostKeyFingerprint();
  await expect(page.getByText(/^Server host key:/)).toHaveText(
    `Server host key: ${hostKey}. Saved with the source: a run stops if the server ever shows another key.`,
  );
  await expect(page.getByRole('alert')).toHaveCount(0);
  await shots(page, 'test-fetch-ok');

  // What was fetched belongs to the connection as it was: a changed pattern is fetched again before mapping.
  const pattern = page.getByLabel('File name pattern');
  const typed = await pattern.inputValue();
  await pattern.fill('*.txt');
  await expect(page.getByText('first1@example.com')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Continue to mapping' })).toBeDisabled();
  await pattern.fill(typed);
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText('first1@example.com')).toBeVisible();

  await page.getByRole('button', { name: 'Continue to mapping' }).click();
  await expect(page.getByRole('heading', { name: 'Map columns' })).toBeFocused();
  await shots(page, 'mapping');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Schedule and pixel' })).toBeFocused();
  await page.getByLabel('Name').fill('Shop exports');
  await page.getByLabel('Runs').selectOption('hour');
  // Half an hour away from now: no scheduled run joins the "Run now" runs this journey counts.
  await page.getByLabel('At minute').fill(String((new Date().getMinutes() + 30) % 60));
  await shots(page, 'schedule');
  await page.getByRole('button', { name: 'Save source' }).click();
  await expect(page.getByRole('heading', { name: /Shop exports/ })).toBeVisible();
  await expect(page.getByText(`${sftp.user}@${sftp.host}:${sftp.port}`)).toBeVisible();
  await expect(page.getByText('Password (stored)')).toBeVisible();
  await expect(page.getByText(hostKey)).toBeVisible();

  // Matched on the status alone: a run still going shows "Running" and "0 sent".
  const sentRuns = page
    .locator('li', { hasText: 'Run now' })
    .filter({ has: page.getByText('Sent', { exact: true }) });
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(sentRuns).toHaveCount(1, { timeout: 30_000 });
  expect(sentIds()).toHaveLength(4);
  await expect(sentRuns.first()).toContainText(`${sftp.folder}/shop/orders-1.csv`);
  await expect(sentRuns.first()).toContainText('4 rows · 4 sent · 0 already delivered');
  await shots(page, 'first-run');

  // The shop drops the next export: only its rows go out.
  sftp.put('shop/orders-2.csv', exportCsv('second', 3));
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(sentRuns).toHaveCount(2, { timeout: 30_000 });
  await expect(sentRuns.first()).toContainText(`${sftp.folder}/shop/orders-2.csv`);
  await expect(sentRuns.first()).toContainText('3 rows · 3 sent · 0 already delivered');
  const ids = sentIds();
  expect(ids).toHaveLength(7);
  expect(new Set(ids).size).toBe(7);
  // Left in the folder ("Leave it in the folder"), remembered by name, size and time.
  expect(sftp.exists('shop/orders-1.csv')).toBe(true);
  await shots(page, 'source-runs');

  // Edit: the connection as saved, the password kept unless a new one is typed.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Connect: SFTP' })).toBeVisible();
  await expect(page.getByLabel('Server', { exact: true })).toHaveValue(sftp.host);
  await expect(page.getByLabel('Port', { exact: true })).toHaveValue(String(sftp.port));
  await expect(page.getByLabel('User name', { exact: true })).toHaveValue(sftp.user);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByText('Saved. Leave empty to keep it.')).toBeVisible();
  await expect(page.getByText(`Trusted host key: ${hostKey}`)).toBeVisible();
  // The stored password still signs in: both files were sent, the newest is shown for its columns.
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText(/^Read /)).toContainText(
    'Every file here was already sent; this is the newest, shown so you can check the columns.',
  );
  await expect(page.getByText(/^Read /)).toContainText(`${sftp.folder}/shop/orders-2.csv`);
  await shots(page, 'edit');

  // Signing in with a private key instead: the stored password no longer serves, the pasted key does.
  await page.getByLabel('Sign in with').selectOption('key');
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText('Paste the private key.')).toBeVisible();
  await page.getByLabel('Private key', { exact: true }).fill(sftp.privateKey);
  await page.getByLabel('Passphrase (optional)', { exact: true }).fill(sftp.passphrase);
  await page.getByRole('button', { name: 'Test fetch' }).click();
  await expect(page.getByText(/^Read /)).toContainText(`${sftp.folder}/shop/orders-2.csv`);
  await shots(page, 'edit-key');
  await page.getByRole('button', { name: 'Continue to mapping' }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Save source' }).click();
  await expect(page.getByText('Private key (stored)')).toBeVisible();

  sftp.put('shop/orders-3.csv', exportCsv('third', 2));
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(sentRuns).toHaveCount(3, { timeout: 30_000 });
  await expect(sentRuns.first()).toContainText(`${sftp.folder}/shop/orders-3.csv`);
  const all = sentIds();
  expect(all).toHaveLength(9);
  expect(new Set(all).size).toBe(9);
});
