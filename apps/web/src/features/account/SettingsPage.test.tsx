import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/session.tsx', () => ({
  useSession: () => ({
    user: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', company: '', role: '' },
    signedIn: vi.fn(),
    signedOut: vi.fn(),
  }),
}));

const { SettingsPage } = await import('./SettingsPage.tsx');

const renderPage = () =>
  render(
    <MemoryRouter>
      <SettingsPage />
    </MemoryRouter>,
  );
const openTab = (name: string) => userEvent.click(screen.getByRole('tab', { name }));

/** The tab panel around a field; a hidden one is out of sight and out of the accessibility tree. */
const panelOf = (label: string) => screen.getByLabelText(label).closest<HTMLElement>('[role="tabpanel"]')!;

beforeEach(() => vi.clearAllMocks());

describe('SettingsPage tabs', () => {
  it('keeps an unsaved Company edit across a visit to Change Password', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('Company'), 'Acme');
    await openTab('Change Password');
    await openTab('My Profile');
    expect(screen.getByLabelText('Company')).toHaveProperty('value', 'Acme');
  });

  it('keeps a half-typed password across a visit to My Profile', async () => {
    renderPage();
    await openTab('Change Password');
    await userEvent.type(screen.getByLabelText('Current password'), 'old-Pass1');
    await openTab('My Profile');
    await openTab('Change Password');
    expect(screen.getByLabelText('Current password')).toHaveProperty('value', 'old-Pass1');
  });

  it('shows only the selected panel, each named by its tab and hidden from assistive technology otherwise', async () => {
    renderPage();
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
    expect(screen.getByRole('tabpanel', { name: 'My Profile' })).toBeTruthy();
    expect(panelOf('Current password').hidden).toBe(true);
    await openTab('Change Password');
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
    const panel = screen.getByRole('tabpanel', { name: 'Change Password' });
    expect(screen.getByRole('tab', { name: 'Change Password' }).getAttribute('aria-controls')).toBe(panel.id);
    expect(panelOf('Company').hidden).toBe(true);
    expect(panelOf('Current password')).toBe(panel);
  });
});

describe('Change Password', () => {
  it('says a mismatch once, at the confirmation: not again above the form or in a toast', async () => {
    renderPage();
    await openTab('Change Password');
    await userEvent.type(screen.getByLabelText('Current password'), 'Old-Pass-2025!');
    await userEvent.type(screen.getByLabelText('New password'), 'New-Pass-2026!');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'New-Pass-2026?');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(screen.getAllByText('Passwords do not match.')).toHaveLength(1);
    const confirm = screen.getByLabelText('Confirm new password');
    expect(document.getElementById(confirm.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Passwords do not match.',
    );
    expect(toast.error).not.toHaveBeenCalled();
  });
});
