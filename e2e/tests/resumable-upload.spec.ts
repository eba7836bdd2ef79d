import { writeFileSync } from 'node:fs';
import { expect, test, type Route } from '@playwright/test';
import { signUpAndVerify } from '../helpers/auth.ts';

/**
 * Issue 32: a large file goes up with tus in 5 MiB parts. The second part is cut off once (retried at once from
 * the offset the server has), then held while the page reloads; choosing the same file again continues from
 * where the server stopped, and the file arrives whole: one upload with every row.
 */
const ROWS = 80_000;

test('a tus upload cut off halfway continues after a retry and a page reload', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // A file on disk: choosing it again after the reload gives the same name, size and time (tus's fingerprint).
  const path = testInfo.outputPath('big-export.csv');
  const lines = ['Email,Phone,Event,Event Time,Action Source'];
  for (let i = 0; i < ROWS; i++)
    lines.push(
      `buyer${i}@example.com,+1650555${String(i % 10000).padStart(4, '0')},Purchase,2026-01-02T10:00:00Z,physical_store`,
    );
  writeFileSync(path, lines.join('\n') + '\n');

  await signUpAndVerify(page, { firstName: 'Tess' });
  await page.getByRole('button', { name: "Let's go" }).click();
  await expect(page.getByText('choose the same file again and it continues where it stopped')).toBeVisible();

  const patches: string[] = [];
  let held: Route | null = null;
  let heldSeen: () => void = () => {};
  const holding = new Promise<void>((r) => (heldSeen = r));
  await page.route('**/api/uploads/tus/*', async (route) => {
    const req = route.request();
    if (req.method() !== 'PATCH') return route.continue();
    const offset = req.headers()['upload-offset']!;
    patches.push(offset);
    // The first part goes through; the second is cut once, then held until the page reloads.
    if (offset === '0' || patches.length > 3) return route.continue();
    if (patches.length === 2) return route.abort('connectionreset');
    held = route;
    heldSeen();
  });

  await page.getByTestId('file-input').setInputFiles(path);
  await holding;
  await expect(page.getByText(/Uploading\.\.\. \d+%/)).toBeVisible();
  // The cut part was tried again from the offset the server had: the first part's end.
  expect(patches).toEqual(['0', String(5 * 1024 * 1024), String(5 * 1024 * 1024)]);

  await page.reload();
  await (held as Route | null)?.abort().catch(() => {});
  await page.unroute('**/api/uploads/tus/*');
  await page.getByTestId('file-input').setInputFiles(path);
  await expect(page.getByText('Continuing the upload of big-export.csv where it stopped.')).toBeVisible();
  await expect(page).toHaveURL(/\/map-columns\?fileId=/, { timeout: 60_000 });

  const list = await (await page.request.get('/api/uploads')).json();
  expect(list.total).toBe(1);
  expect(list.uploads[0]).toMatchObject({ fileName: 'big-export.csv', rowCount: ROWS });
});
