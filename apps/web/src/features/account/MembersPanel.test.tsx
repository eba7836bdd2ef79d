import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberList } from '@backsignal/contracts';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
const membersApi = vi.hoisted(() => ({
  list: vi.fn(),
  invite: vi.fn(),
  resend: vi.fn(),
  revoke: vi.fn(),
  changeRole: vi.fn(),
  remove: vi.fn(),
  leave: vi.fn(),
}));
vi.mock('./members-api.ts', () => ({ membersApi }));

const { MembersPanel } = await import('./MembersPanel.tsx');

const person = (userId: string, firstName: string, role: string, you = false) => ({
  userId,
  firstName,
  lastName: 'Lee',
  role,
  you,
});

const asAdmin: MemberList = {
  members: [
    { ...person('u1', 'Olive', 'owner'), email: 'olive@example.com', lastActiveAt: null },
    { ...person('u2', 'Ann', 'admin', true), email: 'ann@example.com', lastActiveAt: null },
    { ...person('u3', 'Max', 'member'), email: 'max@example.com', lastActiveAt: null },
  ] as MemberList['members'],
  invitations: [
    {
      id: 'i1',
      email: 'new@example.com',
      role: 'viewer',
      invitedBy: 'Ann Lee',
      createdAt: '2026-01-01T00:00:00Z',
      lastSentAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-01-08T00:00:00Z',
      expired: false,
    },
    {
      id: 'i2',
      email: 'boss@example.com',
      role: 'owner',
      invitedBy: 'Olive Lee',
      createdAt: '2026-01-01T00:00:00Z',
      lastSentAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-01-08T00:00:00Z',
      expired: true,
    },
  ],
};

beforeEach(() => vi.clearAllMocks());

describe('MembersPanel', () => {
  it('shows a viewer names and roles, with no invite form or management', async () => {
    membersApi.list.mockResolvedValue({
      members: [person('u1', 'Olive', 'owner'), person('u2', 'Vic', 'viewer', true)],
    });
    render(<MembersPanel />);
    expect(await screen.findByText('Olive Lee')).toBeTruthy();
    expect(screen.getByText('Owner')).toBeTruthy();
    expect(screen.queryByText('Invite someone')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave' })).toBeTruthy();
  });

  it('lets an admin manage members and invitations except owners, and offers no owner role', async () => {
    membersApi.list.mockResolvedValue(asAdmin);
    render(<MembersPanel />);
    await screen.findByText('Max Lee');
    // Only Max can be managed: Olive is an owner, Ann is the admin herself.
    expect(screen.getAllByRole('button', { name: 'Remove' })).toHaveLength(1);
    const select = screen.getByLabelText('Role of Max Lee');
    expect(within(select).queryByRole('option', { name: 'Owner' })).toBeNull();
    expect(within(screen.getByLabelText('Role')).queryByRole('option', { name: 'Owner' })).toBeNull();
    // The owner's invitation is shown but cannot be resent or revoked by an admin.
    expect(screen.getAllByRole('button', { name: 'Revoke' })).toHaveLength(1);
    expect(screen.getByText(/expired/)).toBeTruthy();

    membersApi.changeRole.mockResolvedValue({ message: 'Role changed.' });
    await userEvent.selectOptions(select, 'viewer');
    expect(membersApi.changeRole).toHaveBeenCalledWith('u3', 'viewer');
    expect(toast.success).toHaveBeenCalledWith('Role changed.');
  });

  it('sends an invitation and shows the API refusal in its words', async () => {
    membersApi.list.mockResolvedValue(asAdmin);
    render(<MembersPanel />);
    await screen.findByText('Invite someone');
    const { ApiError } = await import('../../lib/api.ts');
    membersApi.invite.mockRejectedValueOnce(
      new ApiError(409, 'CONFLICT', 'max@example.com is already a member of this workspace.'),
    );
    await userEvent.type(screen.getByLabelText('Email'), 'max@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(toast.error).toHaveBeenCalledWith('max@example.com is already a member of this workspace.');

    membersApi.invite.mockResolvedValueOnce({ invitation: {}, message: 'Invitation sent to x@example.com.' });
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'x@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(membersApi.invite).toHaveBeenLastCalledWith({ email: 'x@example.com', role: 'admin' });
    expect(toast.success).toHaveBeenCalledWith('Invitation sent to x@example.com.');
  });
});
