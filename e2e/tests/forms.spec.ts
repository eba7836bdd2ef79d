import { expect, test } from '@playwright/test';

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
  await page.getByLabel(/I'm not a robot/).check();
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Message sent successfully!')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('');
  await page.screenshot({ path: 'screenshots/forms-contact.png', fullPage: true });
});

test('audit: submit, thank-you panel, and the results page scores', async ({ page }) => {
  await page.goto('/audit');
  await page.getByLabel('Name').fill('Ria Patel');
  await page.getByLabel('Email').fill(`ria-${Date.now()}@example.com`);
  await page.getByLabel('Business type').selectOption('PestControl');
  await page.getByLabel('I can see which campaigns drive phone calls').check();
  await page.getByLabel(/I'm not a robot/).check();
  await page.getByRole('button', { name: 'Get my free audit' }).click();
  await expect(page.getByText('Thank you! Your audit is on its way.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book a free strategy session' })).toBeVisible();
  await page.screenshot({ path: 'screenshots/forms-audit-thanks.png', fullPage: true });

  for (const [leaks, score, color, verdict] of [
    ['', '0', 'red', "You're flying blind"],
    ['callTracking, ,revenueReporting', '40', 'red', "You're flying blind"],
    ['callTracking,callToJobTracking,revenueReporting', '60', 'yellow', 'Some tracking in place'],
    ['callTracking,callToJobTracking,revenueReporting,offlineConversions,campaignAttribution', '100', 'green', 'Excellent tracking hygiene'],
  ] as const) {
    await page.goto(`/audit-results?leaks=${encodeURIComponent(leaks)}`);
    await expect(page.getByTestId('score')).toHaveText(score);
    await expect(page.getByTestId('score')).toHaveAttribute('data-color', color);
    await expect(page.getByText(verdict)).toBeVisible();
  }
  await page.screenshot({ path: 'screenshots/forms-audit-results.png', fullPage: true });
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
  await page.getByRole('button', { name: 'Next ↓' }).first().click();
  await page.getByLabel('Name').fill('Sam Ortiz');
  await page.getByLabel('Email').fill(`sam-${Date.now()}@example.com`);
  await page.getByLabel('Business type').selectOption('Roofing');
  await page.getByLabel(/I'm not a robot/).check();
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByText("You've been added to the waitlist!")).toBeVisible();
});

test('lead-AI waitlist shows the confirmation', async ({ page }) => {
  await page.goto('/lead-ai');
  await page.getByLabel('Name').fill('Lee Chan');
  await page.getByLabel('Email').fill(`lee-${Date.now()}@example.com`);
  await page.getByLabel(/I'm not a robot/).check();
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByRole('heading', { name: "You're on the Waitlist!" })).toBeVisible();
  await page.screenshot({ path: 'screenshots/forms-lead-ai.png', fullPage: true });
});
