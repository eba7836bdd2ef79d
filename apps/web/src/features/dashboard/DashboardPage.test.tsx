import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UploadSummary } from '@backsignal/contracts';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({ list: vi.fn(), upload: vi.fn(), remove: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => ({ user: { firstName: 'Morgan' } }) }));
vi.mock('../../lib/public-config.ts', () => ({ usePublicConfig: () => ({ maxUploadMb: 10 }) }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
}));

const { DashboardPage } = await import('./DashboardPage.tsx');

const file = (i: number): UploadSummary => ({
  id: `f${i}`,
  fileName: `file-${i}.csv`,
  status: 'uploaded',
  rowCount: 1,
  sizeBytes: 10,
  createdAt: '2026-11-22T00:00:00Z',
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <Routes>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/map-columns" element={<p>map columns page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.setItem('backsignal:beta-welcome-seen', '1');
});

describe('DashboardPage', () => {
  it('says the outcome of a send on its badge, and shows a corrected file once, as corrected', async () => {
    api.list.mockResolvedValue({
      total: 3,
      uploads: [
        {
          ...file(1),
          fileName: 'leads.csv',
          status: 'submitted',
          corrected: true,
          delivery: { status: 'completed_with_errors', sent: 234, failed: 66 },
        },
        { ...file(2), status: 'submitted', delivery: { status: 'completed', sent: 300, failed: 0 } },
        { ...file(3), status: 'prepared', delivery: null },
      ],
    });
    renderPage();
    const items = await screen.findAllByRole('listitem');
    const text = items.map((li) => li.textContent);
    // Failed on the old code: a send with 66 failures was a green 'submitted'.
    expect(text[0]).toContain('leads.csv, corrected');
    expect(text[0]).toContain('234 sent · 66 failed');
    expect(text[0]).toContain('sent with errors');
    expect(text[0]).not.toContain('submitted');
    expect(text[1]).toContain('300 sent');
    expect(text[1]).not.toContain('with errors');
    expect(text[2]).toContain('prepared');
  });

  it('never gives a send that sent no event the green "sent" badge', async () => {
    api.list.mockResolvedValue({
      total: 1,
      uploads: [
        {
          ...file(1),
          status: 'submitted',
          delivery: { status: 'completed', sent: 0, failed: 0, skipped: 120 },
        },
      ],
    });
    renderPage();
    const [item] = await screen.findAllByRole('listitem');
    // Failed on the old code: '0 sent' beside a green 'sent'.
    expect(item!.textContent).toContain('nothing new sent');
    expect(item!.textContent).toContain('120 already delivered');
    expect(item!.querySelector('.bg-green-100')).toBeNull();
  });

  it('tells two files of the same name apart, in the list and in the delete dialog', async () => {
    api.list.mockResolvedValue({
      total: 2,
      uploads: [
        {
          ...file(1),
          fileName: 'leads.csv',
          rowCount: 120,
          createdAt: '2026-11-27T09:15:00Z',
          status: 'submitted',
          delivery: {
            status: 'completed',
            sent: 120,
            failed: 0,
            pixel: { name: 'Shop pixel', pixelId: '555' },
          },
        },
        {
          ...file(2),
          fileName: 'leads.csv',
          rowCount: 80,
          createdAt: '2026-11-28T14:40:00Z',
        },
      ],
    });
    renderPage();
    const items = await screen.findAllByRole('listitem');
    // Failed on the old code: both rows read 'leads.csv' with a row count and a date only.
    expect(items[0]!.textContent).toContain('120 rows');
    expect(items[0]!.textContent).toContain('sent to Shop pixel');
    expect(items[1]!.textContent).toContain('80 rows');
    expect(items[1]!.textContent).toContain('Nov 28, 2026');
    const [first, second] = screen.getAllByRole('button', { name: 'Delete leads.csv' });
    expect(first!.getAttribute('aria-describedby')).not.toBe(second!.getAttribute('aria-describedby'));
    expect(document.getElementById(first!.getAttribute('aria-describedby')!)!.textContent).toContain(
      '120 rows',
    );
    await userEvent.click(first!);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('120 rows');
    expect(dialog.textContent).toContain('sent to Shop pixel');
  });

  it('gives the total count only once the list has loaded, never "0 total" while loading or failed', async () => {
    let answer!: (v: { uploads: UploadSummary[]; total: number }) => void;
    api.list.mockReturnValueOnce(new Promise((r) => (answer = r)));
    const loading = renderPage();
    expect(screen.queryByText(/ total$/)).toBeNull();
    answer({ uploads: [file(1)], total: 1 });
    expect(await screen.findByText('1 total')).toBeTruthy();
    loading.unmount();

    api.list.mockRejectedValue(new Error('down'));
    renderPage();
    expect(await screen.findByText('Failed to load uploaded files')).toBeTruthy();
    expect(screen.queryByText(/ total$/)).toBeNull();
  });

  it('tells the user about problems met while reading an uploaded file', async () => {
    api.list.mockResolvedValue({ uploads: [], total: 0 });
    api.upload.mockResolvedValue({
      file: file(1),
      headers: ['a'],
      issues: [
        { rowNumber: 1, code: 'BLANK_HEADER', message: 'Column 2 has no name; it is called "Column 2".' },
        { rowNumber: 4, code: 'RAGGED_ROW', message: 'Row 4 has 3 cells.' },
      ],
      message: 'Uploaded: file-1.csv',
    });
    renderPage();
    await screen.findByText('No files yet. Upload your first CSV above.');
    await userEvent.upload(
      screen.getByTestId('file-input'),
      new File(['a\n1\n'], 'file-1.csv', { type: 'text/csv' }),
    );
    await screen.findByText('map columns page');
    expect(toast.success).toHaveBeenCalledWith('Uploaded: file-1.csv');
    expect(toast.warn).toHaveBeenCalledWith(
      'We read your file, but: Column 2 has no name; it is called "Column 2". (and 1 more problem, listed on the validation step)',
    );
  });

  it('goes back to the last page with files after deleting the last file of the last page', async () => {
    let files = Array.from({ length: 21 }, (_, i) => file(i + 1));
    api.list.mockImplementation(async (page: number) => ({
      uploads: files.slice((page - 1) * 10, page * 10),
      total: files.length,
    }));
    api.remove.mockImplementation(async (id: string) => {
      files = files.filter((f) => f.id !== id);
      return { message: 'File deleted!' };
    });
    renderPage();
    await screen.findByText('Page 1 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByText('Page 3 of 3');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete file-21.csv' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete file' }));
    expect(await screen.findByText('Page 2 of 2')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'file-20.csv' })).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith('File deleted!');
  });

  it("raises the spec's error toast when the file list cannot load", async () => {
    api.list.mockRejectedValue(new Error('network'));
    renderPage();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load uploaded files'));
  });
});
