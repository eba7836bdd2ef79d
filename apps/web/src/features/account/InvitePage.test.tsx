import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
const membersApi = vi.hoisted(() => ({ preview: vi.fn(), accept: vi.fn() }));
vi.mock('./members-api.ts', () => ({ membersApi }));

const { InvitePage } = await import('./InvitePage.tsx');
const { ApiError } = await import('../../lib/api.ts');

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/invite" element={<InvitePage />} />
        <Route path="/w/acme-1a2b3c4d/dashboard" element={<p>Dashboard</p>} />
      </Routes>
    </MemoryRouter>,
  );

const pending = {
  workspaceName: 'Acme',
  invitedBy: 'Olive Lee',
  email: 'ann@example.com',
  role: 'member',
  expiresAt: '2026-01-08T00:00:00Z',
  state: 'pending',
  alreadyMember: false,
};

beforeEach(() => vi.clearAllMocks());

describe('InvitePage', () => {
  it('shows who invited whom, joins, and opens the dashboard of the workspace joined', async () => {
    membersApi.preview.mockResolvedValue(pending);
    membersApi.accept.mockResolvedValue({
      workspace: { id: 'w1', slug: 'acme-1a2b3c4d', name: 'Acme', role: 'member' },
      message: 'You joined Acme.',
    });
    renderAt('/invite?token=t0k');
    expect(await screen.findByText('Olive Lee invited ann@example.com to Acme as member.')).toBeTruthy();
    expect(membersApi.preview).toHaveBeenCalledWith('t0k');
    await userEvent.click(screen.getByRole('button', { name: 'Join Acme' }));
    expect(membersApi.accept).toHaveBeenCalledWith('t0k');
    expect(toast.success).toHaveBeenCalledWith('You joined Acme.');
    expect(await screen.findByText('Dashboard')).toBeTruthy();
  });

  it('says an ended invitation ended, with no button', async () => {
    membersApi.preview.mockResolvedValue({ ...pending, state: 'expired' });
    renderAt('/invite?token=t0k');
    expect(await screen.findByText('This invitation has expired. Ask for a new one.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("gives another account the API's words only, and a link without a token a plain message", async () => {
    membersApi.preview.mockRejectedValue(
      new ApiError(403, 'FORBIDDEN', 'This invitation is for another email address.'),
    );
    renderAt('/invite?token=t0k');
    expect(await screen.findByText('This invitation is for another email address.')).toBeTruthy();
    expect(screen.queryByText(/Acme/)).toBeNull();

    renderAt('/invite');
    expect(await screen.findByText('The invitation link is incomplete.')).toBeTruthy();
  });
});
