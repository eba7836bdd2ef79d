import { expect, test, type Page } from '@playwright/test';
import { captchaBox, solveCaptcha } from '../helpers/captcha.ts';

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'screenshots';

/** Holds the page's requests to `url` until the returned function is called. */
async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('contact form: required fields, captcha, success clears the form', async ({ page }) => {
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible();
  await page.getByLabel('Name').fill('Dana Fox');
  await page.getByLabel('Email').fill('dana@example.com');
  await page.getByLabel('Reason').selectOption('question');
  await page.getByLabel('Message').fill('Do you support Salesforce exports?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Please complete the captcha.')).toBeVisible();
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Message sent successfully!')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('');
  await page.screenshot({ path: `${SHOTS}/forms-contact.png`, fullPage: true });
});

test('audit: submit, thank-you panel, and the results page scores', async ({ page }) => {
  await page.goto('/audit');
  await page.getByLabel('Name').fill('Ria Patel');
  await page.getByLabel('Email').fill(`ria-${Date.now()}@example.com`);
  await page.getByLabel('Business type').selectOption('PestControl');
  await page.getByLabel('I can see which campaigns drive phone calls').check();
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Get my free audit' }).click();
  await expect(page.getByText('Thank you! Your audit is on its way.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book a free strategy session' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-audit-thanks.png`, fullPage: true });

  for (const [leaks, score, color, verdict] of [
    ['', '0', 'red', "You're flying blind"],
    ['callTracking, ,revenueReporting', '40', 'red', "You're flying blind"],
    ['callTracking,callToJobTracking,revenueReporting', '60', 'yellow', 'Some tracking in place'],
    [
      'callTracking,callToJobTracking,revenueReporting,offlineConversions,campaignAttribution',
      '100',
      'green',
      'Excellent tracking hygiene',
    ],
  ] as const) {
    await page.goto(`/audit-results?leaks=${encodeURIComponent(leaks)}`);
    await expect(page.getByTestId('score')).toHaveText(score);
    await expect(page.getByTestId('score')).toHaveAttribute('data-color', color);
    await expect(page.getByText(verdict)).toBeVisible();
  }
  await page.screenshot({ path: `${SHOTS}/forms-audit-results.png`, fullPage: true });
});

test('automation: variant kept across reloads, waitlist success', async ({ page }) => {
  await page.goto('/automation');
  await expect(page.getByTestId('headline')).toBeVisible();
  await page.waitForFunction(() => localStorage.getItem('backsignal:automation-variant') !== null);
  const headline = await page.getByTestId('headline').textContent();
  const subtext = await page.getByTestId('subtext').textContent();
  await page.reload();
  await expect(page.getByTestId('headline')).toHaveText(headline!);
  await expect(page.getByTestId('subtext')).toHaveText(subtext!);
  // Each 'Next' button moves keyboard focus to the next section's heading.
  const nexts = page.getByRole('button', { name: 'Next ↓' });
  for (const [i, heading] of [
    'Before and after',
    "What's included",
    'How it works',
    'Join the Waitlist',
  ].entries()) {
    await nexts.nth(i).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: heading })).toBeFocused();
  }
  await page.getByLabel('Name').fill('Sam Ortiz');
  await page.getByLabel('Email').fill(`sam-${Date.now()}@example.com`);
  await page.getByLabel('Business type').selectOption('Roofing');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByText("You've been added to the waitlist!")).toBeVisible();
});

test('privacy policy names Cloudflare Turnstile, and the Meta Pixel only when one is configured', async ({
  page,
}) => {
  await page.goto('/privacy-policy');
  await expect(page.getByText(/Cloudflare Turnstile/)).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('privacy-meta-pixel')).toHaveCount(0);
  await page.route('**/api/config', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), marketingPixelId: '123456789' } });
  });
  await page.reload();
  await expect(page.getByTestId('privacy-meta-pixel')).toContainText('Meta Pixel');
});

test('lead-AI waitlist shows the confirmation', async ({ page }) => {
  await page.goto('/lead-ai');
  await page.getByLabel('Name').fill('Lee Chan');
  await page.getByLabel('Email').fill(`lee-${Date.now()}@example.com`);
  await page.getByLabel('Message').fill('We answer leads the next morning.');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByRole('heading', { name: "You're on the Waitlist!" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-lead-ai.png`, fullPage: true });
});

/**
 * A captcha token is accepted once by the server, even when the request then fails (rate limit, mail, network).
 * The first submission reaches the server (its token is used up) but the answer is replaced by an error; the form
 * must then ask for a fresh captcha, and the retry with it must succeed.
 */
const retryCases = [
  {
    name: 'contact',
    path: '/contact',
    api: '/api/contact',
    fill: async (page: Page) => {
      await page.getByLabel('Name').fill('Dana Fox');
      await page.getByLabel('Email').fill(`dana-${Date.now()}@example.com`);
      await page.getByLabel('Reason').selectOption('question');
      await page.getByLabel('Message').fill('Retry please');
    },
    button: 'Send message',
    success: (page: Page) => page.getByText('Message sent successfully!'),
  },
  {
    name: 'lead-ai',
    path: '/lead-ai',
    api: '/api/contact',
    fill: async (page: Page) => {
      await page.getByLabel('Name').fill('Lee Chan');
      await page.getByLabel('Email').fill(`lee-retry-${Date.now()}@example.com`);
      await page.getByLabel('Message').fill('Retry please');
    },
    button: 'Join the waitlist',
    success: (page: Page) => page.getByRole('heading', { name: "You're on the Waitlist!" }),
  },
  {
    name: 'automation',
    path: '/automation',
    api: '/api/automation-waitlist',
    fill: async (page: Page) => {
      await page.getByLabel('Name').fill('Sam Ortiz');
      await page.getByLabel('Email').fill(`sam-retry-${Date.now()}@example.com`);
      await page.getByLabel('Business type').selectOption('Roofing');
    },
    button: 'Join the waitlist',
    success: (page: Page) => page.getByText("You've been added to the waitlist!"),
  },
  {
    name: 'audit',
    path: '/audit',
    api: '/api/audit',
    fill: async (page: Page) => {
      await page.getByLabel('Name').fill('Ria Patel');
      await page.getByLabel('Email').fill(`ria-retry-${Date.now()}@example.com`);
      await page.getByLabel('Business type').selectOption('PestControl');
    },
    button: 'Get my free audit',
    success: (page: Page) => page.getByText('Thank you! Your audit is on its way.'),
  },
];

for (const c of retryCases) {
  test(`${c.name}: a failed submission resets the captcha and a retry succeeds`, async ({ page }) => {
    let failed = false;
    await page.route(`**${c.api}`, async (route) => {
      if (failed) return route.continue();
      failed = true;
      await route.fetch(); // the server sees (and uses up) the token
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'INTERNAL', message: 'Temporary failure, try again.' }),
      });
    });
    await page.goto(c.path);
    await c.fill(page);
    await solveCaptcha(page);
    await page.getByRole('button', { name: c.button }).click();
    await expect(page.getByText('Temporary failure, try again.')).toBeVisible();
    await expect(captchaBox(page)).not.toBeChecked();
    await page.screenshot({ path: `${SHOTS}/forms-${c.name}-failed.png`, fullPage: true });
    await solveCaptcha(page);
    await page.getByRole('button', { name: c.button }).click();
    await expect(c.success(page)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/forms-${c.name}-retried.png`, fullPage: true });
  });
}

test('dev captcha: the box ticks only once its token has arrived, and the submission then goes through', async ({
  page,
}) => {
  // Hold the token back: on a busy machine it arrived after Playwright's next click, and that submit was refused.
  const release = await holdRequests(page, '**/api/captcha/dev');
  await page.goto('/automation');
  await page.getByLabel('Name').fill('Sam Ortiz');
  await page.getByLabel('Email').fill(`sam-slow-${Date.now()}@example.com`);
  await page.getByLabel('Business type').selectOption('Roofing');
  await captchaBox(page).click();
  await expect(captchaBox(page)).not.toBeChecked();
  await expect(page.getByText('Verifying...')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-captcha-verifying.png` });
  release();
  await expect(captchaBox(page)).toBeChecked();
  await expect(page.getByText('Verifying...')).toHaveCount(0);
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByText("You've been added to the waitlist!")).toBeVisible();
});

/**
 * A visitor on a slow phone sees the prerendered form before the app's script has run. The form must say it
 * is loading and take nothing: typing was wiped when the app took over, and submit sent the form natively as
 * a GET with name, email and message in the URL.
 */
for (const c of retryCases) {
  test(`${c.name}: before the app is ready the form is disabled and says so, then works`, async ({
    page,
  }) => {
    const release = await holdRequests(page, '**/assets/*.js');
    await page.goto(c.path, { waitUntil: 'commit' });
    const email = page.getByLabel('Email');
    const submit = page.getByRole('button', { name: c.button });
    // What an early visitor does: tap the field, type, press Enter. Nothing may be taken, or sent natively.
    await email.click({ force: true });
    await page.keyboard.type('early@example.com');
    await page.keyboard.press('Enter');
    await expect(email).toHaveValue('');
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByText('Loading the form...')).toBeVisible();
    await expect(email).toBeDisabled();
    await expect(submit).toBeDisabled();
    if (c.name === 'contact') await page.screenshot({ path: `${SHOTS}/forms-contact-loading.png` });
    release();
    await expect(page.getByText('Loading the form...')).toHaveCount(0);
    await c.fill(page);
    await expect(submit).toBeEnabled();
    expect(new URL(page.url()).search).toBe('');
  });
}
