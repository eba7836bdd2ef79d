import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type * as AccountApi from './account-api.ts';

const api = vi.hoisted(() => ({ signup: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
const session = vi.hoisted(() => ({ signedIn: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => session }));
vi.mock('./account-api.ts', async (orig) => ({ ...(await orig<typeof AccountApi>()), accountApi: api }));

const { SignupPage } = await import('./SignupPage.tsx');

const renderPage = () =>
  render(
    <MemoryRouter>
      <SignupPage />
    </MemoryRouter>,
  );

beforeEach(() => vi.clearAllMocks());
/** The text a screen reader reads after the field's name (its error, else its hint). */
const description = (label: string) => {
  const ids = screen.getByLabelText(label, { exact: true }).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
};

describe('SignupPage', () => {
  it('marks every field an empty form is missing, and sends nothing', async () => {
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(description('First name')).toBe('First name is required.');
    expect(description('Email')).toBe('Email is required.');
    expect(description('Password')).toBe('Password must be at least 8 characters long.');
    expect(
      screen.getAllByText('Please resolve the password error before submitting.').length,
    ).toBeGreaterThan(0);
    expect(api.signup).not.toHaveBeenCalled();
  });

  it('names a bad email beside the field when the password is fine, and clears it once edited', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Email'), 'ann@');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Journey-Pass-2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(description('Email')).toBe('Please enter a valid email address.');
    await userEvent.type(screen.getByLabelText('Email'), 'example.com');
    expect(description('Email')).toBe('');
    expect(api.signup).not.toHaveBeenCalled();
  });

  it('a weak password is said once: its first failing rule at the field, the blocking message once, no toast', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    // Fails three rules (number, uppercase, special): only the first in the spec's order shows.
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'abcdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(description('Password')).toBe('Password must include at least one number.');
    expect(screen.queryByText(/must include at least one (uppercase|special)/)).toBeNull();
    expect(screen.getAllByText('Please resolve the password error before submitting.')).toHaveLength(1);
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Please resolve the password error before submitting.',
      'Password must include at least one number.',
    ]);
    expect(toast.error).not.toHaveBeenCalled();
    expect(api.signup).not.toHaveBeenCalled();
    // Editing the password takes the blocking message away; the field goes on saying what is left.
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), '1A!');
    expect(screen.queryByText('Please resolve the password error before submitting.')).toBeNull();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it('shows the rules one at a time, in the spec order: length, number, uppercase, special', async () => {
    renderPage();
    const field = screen.getByLabelText('Password', { exact: true });
    const steps: [string, string][] = [
      ['Ab1!', 'Password must be at least 8 characters long.'],
      ['abcdefgh', 'Password must include at least one number.'],
      ['abcdefg1', 'Password must include at least one uppercase letter.'],
      ['Abcdefg1', 'Password must include at least one special character.'],
    ];
    for (const [password, message] of steps) {
      await userEvent.clear(field);
      await userEvent.type(field, password);
      expect(description('Password')).toBe(message);
      expect(screen.getAllByRole('alert')).toHaveLength(1);
    }
    await userEvent.type(field, '!');
    expect(description('Password')).toBe(
      'At least 8 characters with a number, an uppercase letter and a special character.',
    );
  });

  it('answers every accepted signup with the inbox notice and signs nobody in (issue 21)', async () => {
    api.signup.mockResolvedValue({ message: 'Check your inbox to continue.' });
    renderPage();
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Journey-Pass-2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Check your inbox to continue.');
    expect(screen.getByRole('status').textContent).toContain('ann@example.com');
    expect(session.signedIn).not.toHaveBeenCalled();
  });
});
