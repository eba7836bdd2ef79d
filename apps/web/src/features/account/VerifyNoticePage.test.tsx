import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';

const refresh = vi.hoisted(() => vi.fn());
vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../lib/session.tsx', () => ({
  useSession: () => ({ user: { email: 'ann@example.com', emailVerified: false }, refresh }),
}));

const { VerifyNoticePage } = await import('./VerifyNoticePage.tsx');

describe('VerifyNoticePage', () => {
  it("says so when 'I've verified my email' finds the email still unverified", async () => {
    refresh.mockResolvedValue({ email: 'ann@example.com', emailVerified: false });
    render(
      <MemoryRouter>
        <VerifyNoticePage />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: "I've verified my email" }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your email is not verified yet. Open the link in the email we sent, then try again.',
    );
  });
});
