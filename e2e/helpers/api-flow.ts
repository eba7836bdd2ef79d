import { expect, type Page } from '@playwright/test';

/** The signed-in page's XSRF header, for the session API calls a journey makes from the page's context. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'x-xsrf-token': xsrf };
}

/** The columns of the journeys' simple lead files (Email, Event, When, Source) and the fields they map to. */
export const LEADS_MAPPING = {
  Email: 'email',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
};

/**
 * A CSV uploaded, mapped and validated through the same calls the screens make, for journeys whose subject comes
 * after those steps; answers the upload's id.
 */
export async function uploadValidated(
  page: Page,
  name: string,
  csv: string,
  mappings: Record<string, string>,
): Promise<string> {
  const headers = await xsrfHeaders(page);
  const up = await page.request.post('/api/upload', {
    headers,
    multipart: { file: { name, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(up.ok()).toBe(true);
  const id = (await up.json()).file.id as string;
  const mapped = await page.request.patch(`/api/uploads/${id}/status`, {
    headers,
    data: { status: 'mapped', mappings, hardcodedValues: {} },
  });
  expect(mapped.ok()).toBe(true);
  // Validation spends quota, so its GET carries the XSRF header like a write (issue 21).
  expect((await page.request.get(`/api/uploads/${id}/validate`, { headers })).ok()).toBe(true);
  const validated = await page.request.patch(`/api/uploads/${id}/status`, {
    headers,
    data: { status: 'validated' },
  });
  expect(validated.ok()).toBe(true);
  return id;
}
