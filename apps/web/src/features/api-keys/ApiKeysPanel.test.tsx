import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { ApiKeySummary } from '@backsignal/contracts';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
const apiKeysApi = vi.hoisted(() => ({ list: vi.fn(), create: vi.fn(), revoke: vi.fn() }));
vi.mock('./api-keys-api.ts', () => ({ apiKeysApi }));

const { ApiKeysPanel } = await import('./ApiKeysPanel.tsx');

const key = (over: Partial<ApiKeySummary> = {}): ApiKeySummary => ({
  id: 'k1',
  name: 'Nightly CRM export',
  scope: 'send',
  prefix: 'bsk_AbCdEfGh',
  createdAt: '2026-01-01T00:00:00Z',
  createdBy: 'Olive Lee',
  lastUsedAt: '2026-01-02T10:00:00Z',
  lastUsedIp: '203.0.113.7',
  active: true,
  ...over,
});

const show = () =>
  render(
    <MemoryRouter>
      <ApiKeysPanel />
    </MemoryRouter>,
  );

beforeEach(() => vi.clearAllMocks());

describe('Settings → API keys', () => {
  it('lists each key by name, prefix, scope, creator, last use and address', async () => {
    apiKeysApi.list.mockResolvedValue({
      keys: [
        key(),
        key({
          id: 'k2',
          name: 'BI',
          prefix: 'bsk_ZyXwVuTs',
          scope: 'read',
          lastUsedAt: null,
          lastUsedIp: null,
          active: false,
        }),
      ],
    });
    show();
    expect(await screen.findByText('Nightly CRM export')).toBeTruthy();
    expect(screen.getByText('bsk_AbCdEfGh…')).toBeTruthy();
    expect(screen.getByText(/Send: upload and send · created by Olive Lee/)).toBeTruthy();
    expect(screen.getByText(/from 203\.0\.113\.7/)).toBeTruthy();
    expect(screen.getByText('Last used: Never used')).toBeTruthy();
    expect(screen.getByText(/no longer an owner or admin/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe(
      '/settings/api-docs',
    );
  });

  it('shows a new key once, in a dialog, with its message', async () => {
    apiKeysApi.list.mockResolvedValue({ keys: [] });
    apiKeysApi.create.mockResolvedValue({
      key: key(),
      secret: 'bsk_AbCdEfGh-the-rest-of-it',
      message: 'API key created. Copy it now: it will not be shown again.',
    });
    show();
    await screen.findByText('No API keys yet.');
    await userEvent.type(screen.getByRole('textbox', { name: /Name/ }), 'Nightly CRM export');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Scope' }), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(apiKeysApi.create).toHaveBeenCalledWith({ name: 'Nightly CRM export', scope: 'admin' });
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByDisplayValue('bsk_AbCdEfGh-the-rest-of-it')).toBeTruthy();
    expect(within(dialog).getByText(/will not be shown again/)).toBeTruthy();
  });

  it('revokes only after the confirmation', async () => {
    apiKeysApi.list.mockResolvedValue({ keys: [key()] });
    apiKeysApi.revoke.mockResolvedValue({ message: 'API key revoked' });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    expect(apiKeysApi.revoke).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog', { name: 'Revoke this API key?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(apiKeysApi.revoke).toHaveBeenCalledWith('k1');
    expect(toast.success).toHaveBeenCalledWith('API key revoked');
  });

  it('says so when the list cannot be read', async () => {
    apiKeysApi.list.mockRejectedValue(new Error('down'));
    show();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the API keys.');
  });
});
