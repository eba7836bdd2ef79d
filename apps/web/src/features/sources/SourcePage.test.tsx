import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { SourceDetail, UploadSummary } from '@backsignal/contracts';
import type * as SourcesApi from './sources-api.ts';

const sources = vi.hoisted(() => ({
  get: vi.fn(),
  runs: vi.fn(),
  remove: vi.fn(),
  uploads: vi.fn(),
  list: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('./sources-api.ts', async (orig) => ({ ...(await orig<typeof SourcesApi>()), sourcesApi: sources }));

const { SourcePage } = await import('./SourcePage.tsx');
const { SourcesOverview } = await import('./SourcesOverview.tsx');

const detail = (uploadCount: number): SourceDetail => ({
  id: 's1',
  name: 'Shop orders',
  kind: 'csv_url',
  schedule: { every: 'hour', minute: 0 },
  scheduleText: 'Every hour at :00',
  timeZone: 'Europe/London',
  pixelAccount: { id: 'a1', name: 'Main', pixelId: '123' },
  status: 'active',
  pauseReason: null,
  nextRunAt: null,
  lastRun: null,
  uploadCount,
  connection: {
    kind: 'csv_url',
    url: 'https://example.com/orders.csv',
    auth: 'none',
    headerName: null,
    username: null,
    hasSecret: false,
  },
  mappings: { email: 'email' },
  hardcodedValues: {},
  settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
  testEventCode: null,
  errorThreshold: 0.2,
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/dashboard" element={<SourcesOverview />} />
          <Route path="/sources/:id" element={<SourcePage />} />
          <Route path="/sources" element={<p>sources list</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  sources.runs.mockResolvedValue({ runs: [] });
  sources.remove.mockResolvedValue({ message: 'Source deleted' });
});

describe('deleting a source', () => {
  it('offers to delete the files it imported, unticked by default', async () => {
    sources.get.mockResolvedValue(detail(3));
    renderAt('/sources/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const box = screen.getByRole('checkbox', { name: 'Also delete the 3 files this source imported' });
    expect((box as HTMLInputElement).checked).toBe(false);
    await userEvent.click(box);
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(sources.remove).toHaveBeenCalledWith('s1', true));
    expect(await screen.findByText('sources list')).toBeTruthy();
  });

  it('keeps the files unless asked, and says so; a source without files shows no box', async () => {
    sources.get.mockResolvedValue(detail(1));
    const view = renderAt('/sources/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.getByText(/The files it imported stay on the dashboard/)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Also delete the file this source imported' })).toBeTruthy();
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(sources.remove).toHaveBeenCalledWith('s1', false));
    view.unmount();

    sources.get.mockResolvedValue(detail(0));
    renderAt('/sources/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe("the dashboard's group of a source's files", () => {
  const upload = (i: number): UploadSummary => ({
    id: `u${i}`,
    fileName: `Shop orders 2026-11-2${i} 08:00.csv`,
    status: 'submitted',
    rowCount: 10 + i,
    sizeBytes: 100,
    createdAt: `2026-11-2${i}T08:00:00Z`,
    delivery: { status: 'completed', sent: i, failed: 0 },
  });

  it('lists the files under their source, folded until opened', async () => {
    sources.list.mockResolvedValue({ sources: [{ ...detail(7), lastRun: null }] });
    sources.uploads.mockResolvedValue({ total: 7, uploads: [1, 2, 3, 4, 5].map(upload) });
    renderAt('/dashboard');
    const toggle = await screen.findByRole('button', { name: /7 files imported by Shop orders/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(sources.uploads).not.toHaveBeenCalled();
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const list = await screen.findByRole('list', { name: 'Files imported by Shop orders' });
    expect(list.textContent).toContain('Shop orders 2026-11-21 08:00.csv');
    expect(list.textContent).toContain('11 rows');
    expect(screen.getByRole('link', { name: /Latest 5 of 7 files/ }).getAttribute('href')).toBe(
      '/sources/s1',
    );
    expect(sources.uploads).toHaveBeenCalledWith('s1', 5);
  });

  it('shows no group for a source without files', async () => {
    sources.list.mockResolvedValue({ sources: [detail(0)] });
    renderAt('/dashboard');
    await screen.findByText('Shop orders');
    expect(screen.queryByRole('button', { name: /imported by/ })).toBeNull();
  });
});
