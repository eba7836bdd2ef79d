import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import type * as Api from '../../lib/api.ts';
import type * as AccountApi from './account-api.ts';

const account = vi.hoisted(() => ({ login: vi.fn() }));
const http = vi.hoisted(() => ({ api: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
const signedIn = vi.hoisted(() => vi.fn());
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => ({ signedIn }) }));
vi.mock('../../lib/track.ts', () => ({ track: vi.fn() }));
vi.mock('../../lib/public-config.ts', () => ({
  usePublicConfig: () => ({ captchaMode: 'dev', captchaSiteKey: null }),
}));
vi.mock('../../lib/api.ts', async (orig) => ({ ...(await orig<typeof Api>()), api: http.api }));
vi.mock('./account-api.ts', async (orig) => ({ ...(await orig<typeof AccountApi>()), accountApi: account }));

const { LoginPage } = await import('./LoginPage.tsx');

const MESSAGE = 'Too many failed login attempts on this account. Please complete the captcha to log in.';
const user = { id: 'u1', email: 'owner@example.com', emailVerified: true };

beforeEach(() => vi.clearAllMocks());

async function fillIn() {
  render(
    <MemoryRouter>
      <LoginPage />
    </MemoryRouter>,
  );
  await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
  await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Right-Password-1!');
}

describe('LoginPage', () => {
  it('shows no captcha until the API asks for one', async () => {
    account.login.mockResolvedValue({ user, message: 'You are now logged in!' });
    await fillIn();
    expect(screen.queryByLabelText(/not a robot/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(signedIn).toHaveBeenCalledWith(user));
    expect(account.login).toHaveBeenCalledWith({ email: 'owner@example.com', password: 'Right-Password-1!' });
  });

  it('shows the captcha when the API answers CAPTCHA_REQUIRED and signs in with its token', async () => {
    account.login
      .mockRejectedValueOnce(new ApiError(403, 'CAPTCHA_REQUIRED', MESSAGE))
      .mockResolvedValueOnce({ user, message: 'You are now logged in!' });
    http.api.mockResolvedValue({ token: 'dev-token-1' });
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(MESSAGE)).toBeTruthy();
    const box = await screen.findByLabelText(/not a robot/);

    // Not ticked yet: nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please complete the captcha.')).toBeTruthy();
    expect(account.login).toHaveBeenCalledTimes(1);

    await userEvent.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(http.api).toHaveBeenCalledWith('/api/captcha/dev');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(signedIn).toHaveBeenCalledWith(user));
    expect(account.login).toHaveBeenLastCalledWith({
      email: 'owner@example.com',
      password: 'Right-Password-1!',
      captchaToken: 'dev-token-1',
    });
  });
});
