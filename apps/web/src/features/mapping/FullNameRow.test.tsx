import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { suggestMappings } from '@backsignal/core/browser';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type * as WorkflowApi from '../workflow/workflow-api.ts';
import { applySuggestions, clearAll, mapNamesSeparately, suggestionChoices } from './mapping-state.ts';
import { SplitExample } from './FullNameRow.tsx';

const api = vi.hoisted(() => ({ file: vi.fn(), headers: vi.fn(), setStatus: vi.fn(), templates: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
}));

const { MapColumnsPage } = await import('./MapColumnsPage.tsx');

// A Shopify orders export: "Phone" empty in every row, "Billing Phone" and "Billing Name" filled.
const HEADERS = [
  'Name',
  'Email',
  'Paid at',
  'Currency',
  'Total',
  'Billing Name',
  'Billing Phone',
  'Shipping Name',
  'Phone',
];
const SAMPLES: Record<string, string[]> = {
  Name: ['#1001'],
  Email: ['ann@example.com'],
  'Paid at': ['2026-11-20 10:00:00 +0100'],
  Currency: ['EUR'],
  Total: ['42.00'],
  'Billing Name': ['Dr. Ann van der Berg'],
  'Billing Phone': ['+31 6 12345678'],
  'Shipping Name': ['Ann van der Berg'],
  Phone: [],
};
const response = (extra = {}) => ({
  headers: HEADERS,
  mappings: {},
  hardcodedValues: {},
  settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
  samples: SAMPLES,
  saved: false,
  autoMapped: {} as Record<string, string>,
  ...extra,
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/map-columns?fileId=f1']}>
        <Routes>
          <Route path="/map-columns" element={<MapColumnsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  api.file.mockResolvedValue({
    id: 'f1',
    fileName: 'orders_export.csv',
    status: 'uploaded',
    rowCount: 2,
    sizeBytes: 10,
    createdAt: '',
  });
  api.setStatus.mockResolvedValue({});
  api.templates.mockResolvedValue([]);
  // The 600 ms auto-save is sent when the page is left (see MapColumnsPage.test.tsx).
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) =>
    ms === 600 ? real(() => {}, 2 ** 31 - 1) : real(fn, ms, ...rest)) as typeof setTimeout);
});
afterEach(() => vi.mocked(globalThis.setTimeout).mockRestore());

describe('the mapping screen with a whole-name column (decision 0097)', () => {
  it('shows Billing Name feeding first and last name, with a sample split, and saves it as full_name', async () => {
    api.headers.mockResolvedValue(response());
    const view = renderPage();
    const select = await screen.findByLabelText('Full name');
    expect(select).toHaveProperty('value', 'Billing Name');
    const row = select.closest('li')!;
    expect(row.textContent).toContain('→ First name first_name and Last name last_name');
    expect(within(row).getByText('Auto-Mapped')).toBeTruthy();
    expect(within(row).getByTestId('name-split-example').textContent).toBe(
      'e.g. "Dr. Ann van der Berg" → first name Ann, last name van der Berg',
    );
    // No separate first or last name row was suggested.
    expect(screen.queryByLabelText('First name')).toBeNull();
    view.unmount();
    const body = api.setStatus.mock.calls.at(-1)![1];
    expect(body.mappings).toMatchObject({ 'Billing Name': 'full_name', 'Billing Phone': 'phone' });
    expect(body.autoMapped).toMatchObject({ full_name: 'Billing Name' });
  });

  it('says why Billing Phone was chosen over Phone', async () => {
    api.headers.mockResolvedValue(response());
    renderPage();
    const notes = await screen.findByRole('list', { name: 'Why these columns were suggested' });
    expect(notes.textContent).toBe('Billing Phone chosen over Phone: Phone is empty in every row.');
    expect(screen.getByLabelText('Phone')).toHaveProperty('value', 'Billing Phone');
  });

  it('drops the note once the user picks another column', async () => {
    api.headers.mockResolvedValue(response());
    renderPage();
    await userEvent.selectOptions(await screen.findByLabelText('Phone'), 'Phone');
    expect(screen.queryByRole('list', { name: 'Why these columns were suggested' })).toBeNull();
  });

  it('undoes the split: first and last name are then mapped separately', async () => {
    api.headers.mockResolvedValue(response());
    const view = renderPage();
    await screen.findByLabelText('Full name');
    await userEvent.click(screen.getByRole('button', { name: 'Map first and last name separately' }));
    expect(screen.queryByLabelText('Full name')).toBeNull();
    expect(screen.getByLabelText('First name')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Last name')).toHaveProperty('value', '');
    // Billing Name is free again for either.
    expect(
      within(screen.getByLabelText('First name')).getByRole('option', { name: /^Billing Name/ }),
    ).toHaveProperty('disabled', false);
    view.unmount();
    expect(api.setStatus.mock.calls.at(-1)![1].mappings['Billing Name']).toBeUndefined();
  });

  it('shows a saved mapping without a whole name unchanged', async () => {
    api.headers.mockResolvedValue(
      response({
        mappings: { Email: 'email', 'Shipping Name': 'last_name', 'Paid at': 'event_time' },
        saved: true,
      }),
    );
    renderPage();
    expect(await screen.findByLabelText('Last name')).toHaveProperty('value', 'Shipping Name');
    expect(screen.queryByLabelText('Full name')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Why these columns were suggested' })).toBeNull();
  });

  it('offers Full name among the mappable fields', async () => {
    api.headers.mockResolvedValue(response({ mappings: { Email: 'email' }, saved: true }));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add full_name to Mapped Fields' }));
    expect(screen.getByLabelText('Full name')).toHaveProperty('value', '');
  });
});

describe('mapping state for whole names', () => {
  it('does not suggest a whole name where the first name already has a column', () => {
    const rows = [
      { field: 'first_name', mode: 'column' as const, column: 'Shipping Name', value: '', auto: false },
    ];
    expect(applySuggestions(rows, HEADERS, SAMPLES).some((r) => r.field === 'full_name')).toBe(false);
  });

  it('keeps the spec’s suggestions without samples', () => {
    const rows = applySuggestions(clearAll(), HEADERS);
    expect(rows.find((r) => r.field === 'phone')?.column).toBe('Phone');
    expect(suggestionChoices(rows, suggestMappings(HEADERS).choices)).toEqual([]);
  });

  it('lists the whole name just before first and last name', () => {
    const rows = mapNamesSeparately(applySuggestions(clearAll(), HEADERS, SAMPLES));
    const fields = rows.map((r) => r.field);
    expect(fields.indexOf('first_name')).toBe(fields.indexOf('last_name') - 1);
    const withName = applySuggestions(clearAll(), HEADERS, SAMPLES).map((r) => r.field);
    expect(withName.indexOf('full_name')).toBeGreaterThan(withName.indexOf('phone'));
  });

  it.each([
    ['Cher', '"Cher" → first name Cher (no last name)'],
    ['Smith, John', '"Smith, John" → first name John, last name Smith'],
    ['', null],
  ])('describes the split of %j', (sample, text) => {
    const { container } = render(<SplitExample sample={sample} />);
    expect(container.textContent || null).toBe(text && `e.g. ${text}`);
  });
});
