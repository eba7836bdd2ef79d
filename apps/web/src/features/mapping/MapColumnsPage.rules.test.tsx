import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

/** Issue 29 on the mapping screen: Meta's per-source rules before validation, and a template's changes. */
const api = vi.hoisted(() => ({
  file: vi.fn(),
  headers: vi.fn(),
  setStatus: vi.fn(),
  templates: vi.fn(),
  template: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
}));

const { MapColumnsPage } = await import('./MapColumnsPage.tsx');

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

const saved = (
  headers: string[],
  mappings: Record<string, string>,
  hardcodedValues: Record<string, string> = {},
  samples: Record<string, string[]> = {},
) => ({
  headers,
  mappings,
  hardcodedValues,
  settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
  samples,
  saved: true,
  autoMapped: {},
});

beforeEach(() => {
  vi.clearAllMocks();
  api.file.mockResolvedValue({ id: 'f1', fileName: 'a.csv', status: 'uploaded', rowCount: 3, sizeBytes: 10 });
  api.setStatus.mockResolvedValue({});
  api.templates.mockResolvedValue([]);
});

const BASE = { Email: 'email', Event: 'event_name', When: 'event_time', UA: 'client_user_agent' };
const FILE = ['Email', 'Event', 'When', 'UA', 'Channel', 'Url'];

describe('Meta’s per-source rules at mapping', () => {
  it('a fixed website source without event_source_url: said before validation, Continue disabled', async () => {
    api.headers.mockResolvedValue(saved(FILE, BASE, { action_source: 'website' }));
    renderPage();
    const message =
      'action_source is website for every row. Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url.';
    expect(
      await screen.findByRole('region', { name: 'Meta will refuse these events as mapped' }),
    ).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Continue to Validation' })).toHaveProperty('disabled', true);

    // Mapping the URL column lifts both.
    await userEvent.click(screen.getByRole('button', { name: 'Add event_source_url to Mapped Fields' }));
    await userEvent.selectOptions(screen.getByLabelText('Event source URL'), 'Url');
    expect(screen.queryByRole('region', { name: 'Meta will refuse these events as mapped' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue to Validation' })).toHaveProperty('disabled', false);
  });

  it('the spec’s messages come first', async () => {
    api.headers.mockResolvedValue(saved(FILE, { Email: 'email' }, { action_source: 'website' }));
    renderPage();
    await screen.findByRole('region', { name: 'Meta will refuse these events as mapped' });
    expect(screen.getByRole('status').textContent).toBe('Missing required fields: event_name, event_time');
  });

  it('a mapped column whose samples are website: a warning, Continue stays possible', async () => {
    api.headers.mockResolvedValue(
      saved(FILE, { ...BASE, Channel: 'action_source' }, {}, { Channel: ['website', 'Website'] }),
    );
    renderPage();
    const notice = await screen.findByRole('region', { name: 'Meta will refuse these events as mapped' });
    expect(notice.textContent).toContain(
      'The action_source column "Channel" reads website in every sample row. Meta needs event_source_url for website events',
    );
    expect(screen.getByRole('button', { name: 'Continue to Validation' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('status').textContent).toBe(
      'Every mapped field has a source, but see the warning above: Meta needs more for some rows.',
    );
  });
});

describe('applying a template', () => {
  it('lists what it changed and left unmapped on the page, with an Undo', async () => {
    const headers = ['Email', 'Customer Email', 'Event', 'When', 'Source'];
    api.headers.mockResolvedValue(
      saved(headers, { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' }),
    );
    api.templates.mockResolvedValue([{ id: 't1', name: 'Shopify orders' }]);
    api.template.mockResolvedValue({
      id: 't1',
      name: 'Shopify orders',
      mappings: {
        'Customer Email': 'email',
        Event: 'event_name',
        When: 'event_time',
        Source: 'action_source',
        Phone: 'phone',
      },
      hardcoded: {},
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Mapping Actions' }));
    await userEvent.selectOptions(await screen.findByLabelText('Saved templates'), 't1');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));

    const note = await screen.findByRole('region', { name: 'Template applied' });
    expect(toast.success).toHaveBeenCalledWith('Template applied!');
    expect(within(note).getByRole('status').textContent).toBe(
      'Template "Shopify orders" applied: 1 field changed, 1 field left unmapped.',
    );
    expect(
      within(note)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['email: Email → Customer Email', 'phone: column "Phone" is not in this file (left unmapped)']);
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'Customer Email');

    await userEvent.click(within(note).getByRole('button', { name: 'Undo template' }));
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'Email');
    expect(screen.queryByLabelText('Phone')).toBeNull();
    expect(within(note).getByRole('status').textContent).toBe(
      'Template "Shopify orders" undone: the mapping is back to what it was before.',
    );
    expect(document.activeElement).toBe(note);
  });

  it('offers Undo only while the mapping is as the template left it', async () => {
    const headers = ['Email', 'Mail', 'Event', 'When', 'Source'];
    api.headers.mockResolvedValue(
      saved(headers, { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' }),
    );
    api.templates.mockResolvedValue([{ id: 't1', name: 'Leads' }]);
    api.template.mockResolvedValue({ id: 't1', name: 'Leads', mappings: { Mail: 'email' }, hardcoded: {} });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Mapping Actions' }));
    await userEvent.selectOptions(await screen.findByLabelText('Saved templates'), 't1');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const note = await screen.findByRole('region', { name: 'Template applied' });
    expect(within(note).getByRole('button', { name: 'Undo template' })).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Email'), 'Email');
    expect(within(note).queryByRole('button', { name: 'Undo template' })).toBeNull();
    await userEvent.click(within(note).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Template applied' })).toBeNull();
  });
});
