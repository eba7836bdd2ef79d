import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SECRET_MASK } from '@backsignal/contracts';
import type * as SourcesApi from './sources-api.ts';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const sources = vi.hoisted(() => ({ testFetch: vi.fn(), create: vi.fn(), get: vi.fn(), update: vi.fn() }));
const workflow = vi.hoisted(() => ({ accounts: vi.fn(), templates: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('./sources-api.ts', async (orig) => ({ ...(await orig<typeof SourcesApi>()), sourcesApi: sources }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: workflow,
}));

const { SourceWizard } = await import('./SourceWizard.tsx');

function renderWizard(path = '/sources/new') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/sources/new" element={<SourceWizard />} />
          <Route path="/sources/:id/edit" element={<SourceWizard />} />
          <Route path="/sources/:id" element={<p>source page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  workflow.accounts.mockResolvedValue([{ id: 'a1', name: 'Main pixel', pixelId: '123' }]);
  workflow.templates.mockResolvedValue([]);
  sources.testFetch.mockResolvedValue({
    ok: true,
    headers: ['email', 'event_name', 'event_time', 'action_source'],
    rows: [['a@example.com', 'Lead', '2026-11-20', 'physical_store']],
    rowCount: 1,
    sizeBytes: 80,
    samples: {},
  });
  sources.create.mockResolvedValue({ id: 's1' });
});

/** Kind → connect → test fetch → mapping step. */
async function toMapping() {
  renderWizard();
  await userEvent.click(screen.getByRole('button', { name: /^CSV URL/ }));
  await userEvent.type(screen.getByLabelText('CSV URL'), 'https://example.com/orders.csv');
  await userEvent.click(screen.getByRole('button', { name: 'Test fetch' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Continue to mapping' }));
}

/** The list above the button (each field's own message is an alert too). */
const summary = (title: string) =>
  screen.getAllByRole('alert').find((a) => a.textContent?.startsWith(title))!;

describe('SourceWizard', () => {
  it("uses the upload flow's time zone and phone-country pickers", async () => {
    await toMapping();
    const zone = screen.getByLabelText('Time zone for dates without one');
    expect(zone.tagName).toBe('SELECT');
    expect(within(zone).getByRole('option', { name: 'Europe/London' })).toBeTruthy();
    const country = screen.getByLabelText('Country code for phones without one');
    expect(country.tagName).toBe('SELECT');
    await userEvent.selectOptions(country, 'GB');
    expect(within(country).getByRole('option', { name: 'United Kingdom (GB)' })).toBeTruthy();
    await userEvent.selectOptions(zone, 'Europe/London');

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const scheduleZone = screen.getByLabelText('Time zone of the schedule');
    expect(scheduleZone.tagName).toBe('SELECT');
    await userEvent.selectOptions(scheduleZone, 'Europe/Amsterdam');
    await userEvent.type(screen.getByLabelText('Name'), 'Shop orders');
    await userEvent.click(screen.getByRole('button', { name: 'Save source' }));
    expect(sources.create).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'Shop orders',
        timeZone: 'Europe/Amsterdam',
        settings: { timeZone: 'Europe/London', dateOrder: 'MDY', defaultCountry: 'GB' },
      }),
    );
  });

  it('"Save source" says which fields it needs instead of staying grey', async () => {
    await toMapping();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const save = screen.getByRole('button', { name: 'Save source' });
    expect((save as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByText('Still needed: Name.')).toBeTruthy();
    await userEvent.click(save);
    const alert = summary('To save this source:');
    expect(alert.textContent).toContain('Name: Give the source a name.');
    expect(document.activeElement).toBe(alert);
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(sources.create).not.toHaveBeenCalled();
  });

  it('shows why the server refused the source, beside the field', async () => {
    const { ApiError } = await import('../../lib/api.ts');
    sources.create.mockRejectedValue(
      new ApiError(400, 'VALIDATION_FAILED', 'Please select or save an account first', {
        pixelAccountId: 'Please select or save an account first',
      }),
    );
    await toMapping();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Shop orders');
    await userEvent.click(screen.getByRole('button', { name: 'Save source' }));
    await screen.findByText('The source was not saved:');
    const alert = summary('The source was not saved:');
    expect(alert.textContent).toContain('Pixel account: Please select or save an account first');
    expect(screen.getByLabelText('Pixel account').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a saved URL masked, and asks for its values again before fetching another path', async () => {
    const M = SECRET_MASK;
    const url = `https://b.example.com/f.csv?X-Amz-Expires=60&X-Amz-Signature=${M}`;
    sources.get.mockResolvedValue({
      id: 's1',
      name: 'Signed',
      kind: 'csv_url',
      schedule: { every: 'hour', minute: 0 },
      scheduleText: 'Every hour at :00',
      timeZone: 'UTC',
      pixelAccount: { id: 'a1', name: 'Main pixel', pixelId: '123' },
      status: 'active',
      pauseReason: null,
      nextRunAt: null,
      lastRun: null,
      uploadCount: 0,
      connection: { kind: 'csv_url', url, auth: 'none', headerName: null, username: null, hasSecret: false },
      mappings: { email: 'email' },
      hardcodedValues: {},
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
      testEventCode: null,
      errorThreshold: 0.2,
    });
    renderWizard('/sources/s1/edit');
    const field = (await screen.findByLabelText('CSV URL')) as HTMLInputElement;
    expect(field.value).toBe(url);
    expect(
      screen.getByText(`${M} stands for a stored value: leave it to keep it, or paste the new link.`),
    ).toBeTruthy();

    // The same file: the stored value serves, the server fills it in.
    await userEvent.click(screen.getByRole('button', { name: 'Test fetch' }));
    expect(sources.testFetch).toHaveBeenCalledWith({
      connection: expect.objectContaining({ url }),
      sourceId: 's1',
    });

    // Another path: the stored signature would go to another file, so it is asked for and nothing is fetched.
    sources.testFetch.mockClear();
    await userEvent.clear(field);
    await userEvent.type(field, url.replace('/f.csv', '/other.csv'));
    await userEvent.click(screen.getByRole('button', { name: 'Test fetch' }));
    expect(
      screen.getByText(
        'Enter the value of X-Amz-Signature in the URL again: stored values are kept only for the same URL.',
      ),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(sources.testFetch).not.toHaveBeenCalled();
  });
});
