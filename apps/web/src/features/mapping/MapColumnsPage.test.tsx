import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({ file: vi.fn(), headers: vi.fn(), setStatus: vi.fn(), templates: vi.fn() }));
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
          <Route path="/verify-data" element={<p>validate</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const headers = (h: string[]) => ({
  headers: h,
  mappings: {},
  hardcodedValues: {},
  settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
  samples: {},
  saved: false,
  autoMapped: {} as Record<string, string>,
});

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  api.file.mockResolvedValue({
    id: 'f1',
    fileName: 'a.csv',
    status: 'uploaded',
    rowCount: 3,
    sizeBytes: 10,
    createdAt: '',
  });
  api.setStatus.mockResolvedValue({});
  api.templates.mockResolvedValue([]);
});

describe('MapColumnsPage keyboard', () => {
  it('skips from the mapped fields to Continue, past the long list of mappable fields', async () => {
    api.headers.mockResolvedValue(headers(['email', 'event_name', 'event_time', 'action_source']));
    renderPage();
    const skip = await screen.findByRole('button', { name: 'Skip to the Continue button' });
    await userEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Continue to Validation' }));
  });

  it('lands on the reason when Continue is disabled', async () => {
    api.headers.mockResolvedValue(headers(['email']));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Skip to the Continue button' }));
    expect(document.activeElement?.textContent).toBe(
      'Missing required fields: event_name, event_time, action_source',
    );
  });

  it('names the mapped field that is still empty', async () => {
    api.headers.mockResolvedValue(headers(['email', 'event_name', 'event_time', 'action_source']));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add currency to Mapped Fields' }));
    expect(screen.getByRole('status').textContent).toBe(
      'All fields in the Mapped Fields section must be mapped or hardcoded. Still empty: currency.',
    );
  });

  it('moves focus to the control of a field just added', async () => {
    api.headers.mockResolvedValue(headers(['email', 'event_name', 'event_time', 'action_source']));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add currency to Mapped Fields' }));
    expect(document.activeElement?.id).toBe('map-currency');
  });
});

describe('MapColumnsPage auto-save', () => {
  // The 600 ms debounce never fires by itself here: on a busy machine the clicks alone can take longer, the save
  // then went out on its own and the tests counted one save too many. Leaving the page is what sends it.
  beforeEach(() => {
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: () => void,
      ms?: number,
      ...rest: unknown[]
    ) => (ms === 600 ? real(() => {}, 2 ** 31 - 1) : real(fn, ms, ...rest))) as typeof setTimeout);
  });
  afterEach(() => vi.mocked(globalThis.setTimeout).mockRestore());

  const saved = {
    ...headers(['Email', 'Phone', 'event', 'time', 'src']),
    mappings: { Email: 'email', event: 'event_name', time: 'event_time', src: 'action_source' },
    saved: true,
  };

  it('sends the pending save when the page is left within the 600 ms debounce', async () => {
    api.headers.mockResolvedValue(saved);
    const view = renderPage();
    await userEvent.selectOptions(await screen.findByLabelText('Email'), 'Phone');
    expect(api.setStatus).not.toHaveBeenCalled();
    view.unmount();
    expect(api.setStatus).toHaveBeenCalledTimes(1);
    expect(api.setStatus).toHaveBeenCalledWith('f1', {
      status: 'uploaded',
      mappings: { Phone: 'email', event: 'event_name', time: 'event_time', src: 'action_source' },
      hardcodedValues: {},
      autoMapped: {},
      settings: saved.settings,
    });
  });

  it('sends the pending save when the browser hides the page (tab closed, navigated away)', async () => {
    api.headers.mockResolvedValue(saved);
    renderPage();
    await userEvent.selectOptions(await screen.findByLabelText('Email'), 'Phone');
    window.dispatchEvent(new Event('pagehide'));
    expect(api.setStatus).toHaveBeenCalledTimes(1);
    expect(api.setStatus.mock.calls[0]![1].mappings).toMatchObject({ Phone: 'email' });
  });

  it('sends nothing on leaving when nothing changed or the save already went', async () => {
    api.headers.mockResolvedValue(saved);
    const view = renderPage();
    await screen.findByLabelText('Email');
    view.unmount();
    expect(api.setStatus).not.toHaveBeenCalled();
  });

  it('does not send a stale uploaded save after Continue saved the mapping as mapped', async () => {
    api.headers.mockResolvedValue(saved);
    const view = renderPage();
    await userEvent.selectOptions(await screen.findByLabelText('Email'), 'Phone');
    // On a slow machine the 600 ms auto-save may go before Continue does; what matters is that none follows it.
    const statuses = () => api.setStatus.mock.calls.map((c) => c[1].status);
    await userEvent.click(screen.getByRole('button', { name: 'Continue to Validation' }));
    await waitFor(() => expect(statuses()).toContain('mapped'));
    view.unmount();
    expect(statuses().at(-1)).toBe('mapped');
    expect(statuses().filter((s) => s === 'mapped')).toHaveLength(1);
  });
});

describe('MapColumnsPage auto-mapped after a return to the page', () => {
  const csv = ['Email', 'Phone', 'notes'];
  /** First visit: suggestions applied, then the page is left and its auto-save is what the server holds. */
  async function firstVisit(change?: () => Promise<void>) {
    api.headers.mockResolvedValue(headers(csv));
    const view = renderPage();
    await screen.findByLabelText('Email');
    await change?.();
    view.unmount();
    const body = api.setStatus.mock.calls.at(-1)![1];
    api.headers.mockResolvedValue({
      ...headers(csv),
      mappings: body.mappings,
      hardcodedValues: body.hardcodedValues,
      autoMapped: body.autoMapped,
      saved: true,
    });
  }
  const badges = (field: string) =>
    within(screen.getByLabelText(field).closest('li')!).queryByText('Auto-Mapped');

  it('keeps the Auto-Mapped badges of a saved suggestion, and Clear Suggestions still removes them', async () => {
    await firstVisit();
    renderPage();
    await screen.findByLabelText('Email');
    expect(badges('Email')).not.toBeNull();
    expect(badges('Phone')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Mapping Actions/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear Suggestions' }));
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.queryByLabelText('phone')).toBeNull();
  });

  it('does not flag again a field the user changed before leaving', async () => {
    await firstVisit(() => userEvent.selectOptions(screen.getByLabelText('Email'), 'notes'));
    renderPage();
    await screen.findByLabelText('Email');
    expect(badges('Email')).toBeNull();
    expect(badges('Phone')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Mapping Actions/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear Suggestions' }));
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'notes');
    expect(screen.queryByLabelText('phone')).toBeNull();
  });

  it('flags nothing for a saved mapping that says none of its fields are as suggested', async () => {
    await firstVisit();
    api.headers.mockResolvedValue({ ...(await api.headers('f1')), autoMapped: {} });
    renderPage();
    await screen.findByLabelText('Email');
    expect(screen.queryByText('Auto-Mapped')).toBeNull();
  });
});
