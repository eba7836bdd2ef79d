import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UploadSummary } from '@backsignal/contracts';

const api = vi.hoisted(() => ({ list: vi.fn(), upload: vi.fn(), remove: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => ({ user: { firstName: 'Morgan' } }) }));
vi.mock('../../lib/public-config.ts', () => ({ usePublicConfig: () => ({ maxUploadMb: 10 }) }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({ ...(await orig<typeof import('../workflow/workflow-api.ts')>()), workflowApi: api }));

const { DashboardPage } = await import('./DashboardPage.tsx');

const file = (i: number): UploadSummary => ({ id: `f${i}`, fileName: `file-${i}.csv`, status: 'uploaded', rowCount: 1, sizeBytes: 10, createdAt: '2026-11-22T00:00:00Z' });

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
    await userEvent.upload(screen.getByTestId('file-input'), new File(['a\n1\n'], 'file-1.csv', { type: 'text/csv' }));
    await screen.findByText('map columns page');
    expect(toast.success).toHaveBeenCalledWith('Uploaded: file-1.csv');
    expect(toast.warn).toHaveBeenCalledWith(
      'We read your file, but: Column 2 has no name; it is called "Column 2". (and 1 more problem, listed on the validation step)',
    );
  });
});
