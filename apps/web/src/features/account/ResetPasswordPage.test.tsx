import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type * as AccountApi from './account-api.ts';

const api = vi.hoisted(() => ({ resetPassword: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('./account-api.ts', async (orig) => ({ ...(await orig<typeof AccountApi>()), accountApi: api }));

const { ResetPasswordPage } = await import('./ResetPasswordPage.tsx');

const renderPage = (url = '/reset-password?token=t0k3n') =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <ResetPasswordPage />
    </MemoryRouter>,
  );
/** The text a screen reader reads after the field's name (its error, else its hint). */
const description = (label: string) => {
  const ids = screen.getByLabelText(label, { exact: true }).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
};

beforeEach(() => vi.clearAllMocks());

describe('ResetPasswordPage', () => {
  it('offers a new link when this one cannot be used', () => {
    renderPage('/reset-password');
    expect(screen.getByText('Invalid or missing token.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get a new reset link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });

  it('a weak, mismatched password: one message per field, the blocking message once, no toast', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('New password'), 'abcdefgh');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'abcdefg');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(description('New password')).toBe('Password must include at least one number.');
    expect(description('Confirm new password')).toBe('Passwords do not match.');
    expect(screen.getAllByText('Passwords do not match.')).toHaveLength(1);
    expect(screen.getAllByText('Please resolve the password error before submitting.')).toHaveLength(1);
    expect(screen.queryByText(/must include at least one (uppercase|special)/)).toBeNull();
    expect(toast.error).not.toHaveBeenCalled();
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('a strong password with an empty confirmation: said once, at the confirmation', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('New password'), 'Journey-Pass-2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(description('Confirm new password')).toBe('Passwords do not match.');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Passwords do not match.']);
    expect(toast.error).not.toHaveBeenCalled();
    expect(api.resetPassword).not.toHaveBeenCalled();
  });
});
