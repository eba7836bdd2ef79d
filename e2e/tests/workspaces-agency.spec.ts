import { expect, test, type Browser, type Page } from '@playwright/test';
import { linkFromOutbox, signUpAndVerify, uniqueEmail } from '../helpers/auth.ts';
import { uniquePixelId } from '../helpers/accounts.ts';
import { LEADS_MAPPING, uploadValidated } from '../helpers/api-flow.ts';
import { startFakeGraph, type FakeGraph } from '../fake-graph/fake-graph.ts';
import { bothSizes } from '../helpers/shots.ts';

/**
 * Issue 31's agency journey: an owner runs two clients; a teammate (Member) and the client's marketer (Viewer)
 * each in a browser of their own. The Member sends in client A but sees no token and cannot open client B; the
 * Viewer reads the summary and downloads nothing; removed, the Member's open session loses client A at its next
 * request; the activity log shows each step.
 */
const GRAPH_URL = new URL(process.env.E2E_META_GRAPH_URL!); // set by playwright.config.ts
let graph: FakeGraph;
test.beforeAll(async () => {
  graph = await startFakeGraph({ port: Number(GRAPH_URL.port) });
});
test.afterAll(async () => graph.close());

const TOKEN = 'EAAB-e2e-token-123456';
const when = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z';
const leads = [
  'Email,Event,When,Source',
  ...[2, 3, 4].map((n) => `lead${n}@example.com,Lead,${when},physical_store`),
]
  .join('\r\n')
  .concat('\r\n');

async function person(browser: Browser, firstName: string, email = uniqueEmail(firstName.toLowerCase())) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpAndVerify(page, { firstName, email });
  return { page, email, name: `${firstName} Rivera` };
}

/** A new workspace from the header's switcher; answers its slug. */
async function newWorkspace(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: /^Workspace: .*, Owner$/ }).click();
  await page.getByRole('menuitem', { name: '+ New workspace' }).click();
  await page.getByRole('dialog').getByLabel('Workspace name').fill(name);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByRole('button', { name: `Workspace: ${name}, Owner` })).toBeVisible();
  return /\/w\/([a-z0-9-]+)\/dashboard$/.exec(page.url())![1]!;
}

async function addPixelAccount(page: Page, slug: string, label: string, pixelId: string) {
  await page.goto(`/w/${slug}/pixel-accounts`);
  await page.getByLabel('Label (optional)').fill(label);
  await page.getByLabel('Pixel ID').first().fill(pixelId);
  await page.getByLabel('API access token', { exact: true }).fill(TOKEN);
  await page.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByLabel('Access token', { exact: true })).toHaveValue('••••••••3456');
}

async function invite(page: Page, email: string, role: 'Member' | 'Viewer') {
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Email', { exact: true }).fill(email);
  await panel.getByLabel('Role', { exact: true }).selectOption({ label: role });
  await panel.getByRole('button', { name: 'Send invitation' }).click();
  await expect(panel.getByText(email)).toBeVisible();
}

async function join(p: { page: Page; email: string }, workspace: string, slug: string, shot?: string) {
  await p.page.goto(await linkFromOutbox(p.email, '/invite'));
  const button = p.page.getByRole('button', { name: `Join ${workspace}` });
  await expect(button).toBeVisible();
  if (shot) await bothSizes(p.page, shot);
  await button.click();
  await expect(p.page).toHaveURL(new RegExp(`/w/${slug}/dashboard$`));
  // A new account's first dashboard welcomes it.
  await p.page.getByRole('button', { name: "Let's go" }).click();
}

/** Uploads, maps and validates a file through the API in the workspace the user opened last. */
const preparedFile = (page: Page, name: string) => uploadValidated(page, name, leads, LEADS_MAPPING);

test('an agency runs two clients with a Member and a Viewer (issue 31)', async ({ browser }) => {
  test.setTimeout(240_000);
  const owner = await person(browser, 'Olivia');
  await owner.page.getByRole('button', { name: "Let's go" }).click();
  await expect(owner.page).toHaveURL(/\/w\/[a-z0-9-]+\/dashboard$/);

  // Two clients, a pixel account in each.
  const slugB = await newWorkspace(owner.page, 'Client Beta');
  const pixelB = uniquePixelId();
  await addPixelAccount(owner.page, slugB, 'Beta store', pixelB);
  const slugA = await newWorkspace(owner.page, 'Client Alpha');
  const pixelA = uniquePixelId();
  await addPixelAccount(owner.page, slugA, 'Alpha store', pixelA);
  await owner.page.getByRole('button', { name: 'Workspace: Client Alpha, Owner' }).click();
  await expect(owner.page.getByRole('menu', { name: 'Workspaces' })).toBeVisible();
  await bothSizes(owner.page, 'ws-switcher-open', false);
  await owner.page.keyboard.press('Escape');

  // A teammate as Member and the client as Viewer.
  const memberEmail = uniqueEmail('mia');
  const viewerEmail = uniqueEmail('victor');
  await owner.page.goto(`/w/${slugA}/settings?tab=members`);
  await invite(owner.page, memberEmail, 'Member');
  await invite(owner.page, viewerEmail, 'Viewer');

  const member = await person(browser, 'Mia', memberEmail);
  await join(member, 'Client Alpha', slugA, 'ws-invitation');
  const viewer = await person(browser, 'Victor', viewerEmail);
  await join(viewer, 'Client Alpha', slugA);

  // The Member sends a file in client A with its pixel account, and sees no token.
  const fileId = await preparedFile(member.page, 'alpha-leads.csv');
  await member.page.goto(`/w/${slugA}/submit?fileId=${fileId}`);
  await expect(member.page.getByText('Data Prepared')).toBeVisible({ timeout: 20_000 });
  await expect(member.page.getByRole('option', { name: '+ Save a new account' })).toHaveCount(0);
  await expect(member.page.getByRole('button', { name: 'Test connection' })).toHaveCount(0);
  await member.page.getByLabel('Send to').selectOption({ label: `Alpha store · ${pixelA}` });
  await member.page.getByRole('button', { name: /Send .* events to Meta/ }).click();
  await expect(member.page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible({
    timeout: 30_000,
  });
  await member.page.goto(`/w/${slugA}/pixel-accounts`);
  await expect(member.page.getByLabel('Label', { exact: true })).toHaveValue('Alpha store');
  await expect(member.page.getByLabel('Access token', { exact: true })).toHaveCount(0);
  await expect(member.page.getByText('Add a pixel account')).toHaveCount(0);
  await expect(member.page.getByText('3456')).toHaveCount(0);
  // Beyond the role: a plain message, not a broken wizard.
  await member.page.goto(`/w/${slugA}/sources/new`);
  await expect(member.page.getByRole('heading', { name: 'Not available to your role' })).toBeVisible();
  await bothSizes(member.page, 'ws-role-gate');
  // Client B is not theirs: the same 404 as an address that names nothing.
  await member.page.goto(`/w/${slugB}/dashboard`);
  await expect(member.page.getByRole('heading', { name: 'Workspace not found.' })).toBeVisible();
  await bothSizes(member.page, 'ws-not-found');

  // The Viewer reads the summary and downloads nothing.
  await viewer.page.goto(`/w/${slugA}/dashboard`);
  await expect(viewer.page.getByRole('link', { name: 'alpha-leads.csv' })).toBeVisible();
  await expect(viewer.page.getByTestId('file-input')).toHaveCount(0);
  await viewer.page.getByRole('link', { name: 'alpha-leads.csv' }).click();
  await expect(viewer.page.getByRole('heading', { name: 'Submission Successful' })).toBeVisible();
  await expect(viewer.page.getByText('3 events sent.')).toBeVisible();
  await viewer.page.getByText('Batch details').click();
  await expect(viewer.page.getByRole('button', { name: /Download/ })).toHaveCount(0);
  await expect(viewer.page.getByRole('link', { name: /Download/ })).toHaveCount(0);
  await viewer.page.goto(`/w/${slugA}/map-columns?fileId=${fileId}`);
  await expect(viewer.page.getByRole('heading', { name: 'Not available to your role' })).toBeVisible();

  // Removed, the Member's open session loses client A at its next request.
  await member.page.goto(`/w/${slugA}/dashboard`);
  await expect(member.page.getByText('alpha-leads.csv')).toBeVisible();
  await owner.page.goto(`/w/${slugA}/settings?tab=members`);
  await owner.page
    .getByRole('listitem')
    .filter({ hasText: member.name })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(owner.page.getByText('Member removed.')).toBeVisible();
  await expect(owner.page.getByRole('listitem').filter({ hasText: member.name })).toHaveCount(0);
  await bothSizes(owner.page, 'ws-members');
  const refused = await member.page.request.get('/api/uploads', { headers: { 'x-workspace': slugA } });
  expect(refused.status()).toBe(404);
  await member.page.reload();
  await expect(member.page.getByRole('heading', { name: 'Workspace not found.' })).toBeVisible();

  // The activity log shows each step.
  await owner.page.goto(`/w/${slugA}/settings/activity`);
  const log = owner.page.getByRole('table');
  for (const what of [
    'Pixel account added',
    'Member invited',
    'Member joined',
    'File uploaded',
    'Mapping saved',
    'Send started',
    'Send finished',
    'Member removed',
  ])
    await expect(log.getByRole('row').filter({ hasText: what }).first()).toBeVisible();
  await expect(log.getByRole('row').filter({ hasText: 'Send finished' })).toContainText('Mia Rivera');
  await expect(log.getByRole('row').filter({ hasText: 'Send finished' })).toContainText('3 sent · 0 failed');
  await expect(log.getByRole('row').filter({ hasText: 'Member removed' })).toContainText(member.name);
  await expect(log.getByRole('row').filter({ hasText: 'Member joined' })).toHaveCount(2);
  await bothSizes(owner.page, 'ws-activity');

  await owner.page.goto(`/w/${slugA}/settings?tab=workspace`);
  await expect(owner.page.getByRole('textbox', { name: /Workspace address/ })).toHaveValue(slugA);
  await bothSizes(owner.page, 'ws-settings-workspace');

  for (const p of [owner, member, viewer]) await p.page.context().close();
});
