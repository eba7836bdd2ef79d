import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PixelAccount } from '@backsignal/contracts';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({
  accounts: vi.fn(),
  createAccount: vi.fn(),
  updateAccount: vi.fn(),
  deleteAccount: vi.fn(),
  testAccount: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
}));

const { PixelAccountsPage } = await import('./PixelAccountsPage.tsx');

const ACCOUNT: PixelAccount = {
  id: 'a1',
  name: 'Main',
  pixelId: '123456789',
  accessToken: '••••••••1234',
  status: 'active',
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PixelAccountsPage />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  api.accounts.mockResolvedValue([ACCOUNT]);
});

describe('PixelAccountsPage', () => {
  it("toasts 'Failed to load pixel accounts.' when the list cannot be loaded (spec §8)", async () => {
    api.accounts.mockRejectedValue(new Error('down'));
    renderPage();
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to load pixel accounts.', {
        toastId: 'accounts-load',
      }),
    );
    expect(screen.getByRole('alert').textContent).toBe('Failed to load pixel accounts.');
  });

  it('replaces the token without revealing the old one, and only tests saved settings', async () => {
    api.updateAccount.mockResolvedValue({ ...ACCOUNT, accessToken: '••••••••9999' });
    renderPage();
    const replace = await screen.findByLabelText('Replace token');
    const testButton = screen.getByRole('button', { name: 'Test connection' });
    expect((testButton as HTMLButtonElement).disabled).toBe(false);
    await userEvent.type(replace, 'EAAB-new-9999');
    expect((testButton as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /^Save$/ }));
    await waitFor(() =>
      expect(api.updateAccount).toHaveBeenCalledWith('a1', {
        name: 'Main',
        pixelId: '123456789',
        accessToken: 'EAAB-new-9999',
      }),
    );
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  });

  it('disables Test while a label or pixel id edit is unsaved', async () => {
    renderPage();
    const label = await screen.findByLabelText('Label');
    await userEvent.type(label, 'x');
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows the saved token only masked, and the token being typed on request', async () => {
    renderPage();
    const saved = await screen.findByLabelText('Access token');
    expect((saved as HTMLInputElement).value).toBe('••••••••1234');
    expect((saved as HTMLInputElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Show Access token' })).toBeNull();

    const replace = screen.getByLabelText('Replace token') as HTMLInputElement;
    await userEvent.type(replace, 'EAAB-new-9999');
    expect(replace.type).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show Replace token' }));
    expect(replace.type).toBe('text');
    expect(replace.value).toBe('EAAB-new-9999');
    await userEvent.click(screen.getByRole('button', { name: 'Hide Replace token' }));
    expect(replace.type).toBe('password');
  });

  it("shows 'Testing...' in a neutral colour, then the result", async () => {
    let finish!: (v: unknown) => void;
    api.testAccount.mockReturnValue(new Promise((r) => (finish = r)));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    const pending = screen.getByText('Testing...');
    expect(pending.className).toContain('text-slate-600');
    expect(pending.className).not.toContain('emerald');
    finish({ ok: false, message: 'The access token is invalid or has expired.' });
    expect((await screen.findByText('The access token is invalid or has expired.')).className).toContain(
      'text-red-700',
    );
  });
});
