import type {
  InvitationAccepted,
  InvitationCreate,
  InvitationPreview,
  MemberList,
  MessageResponse,
  PendingInvitation,
  WorkspaceRole,
} from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

/** The members and invitations of the workspace the app shows (decision 0105). */
export const membersApi = {
  list: () => api<MemberList>('/api/workspace/members'),
  invite: (body: InvitationCreate) =>
    api<{ invitation: PendingInvitation; message: string }>('/api/workspace/invitations', {
      method: 'POST',
      body,
    }),
  resend: (id: string) =>
    api<{ invitation: PendingInvitation; message: string }>(`/api/workspace/invitations/${id}/resend`, {
      method: 'POST',
    }),
  revoke: (id: string) => api<MessageResponse>(`/api/workspace/invitations/${id}`, { method: 'DELETE' }),
  changeRole: (userId: string, role: WorkspaceRole) =>
    api<MessageResponse>(`/api/workspace/members/${userId}`, { method: 'PATCH', body: { role } }),
  remove: (userId: string) => api<MessageResponse>(`/api/workspace/members/${userId}`, { method: 'DELETE' }),
  leave: () => api<MessageResponse>('/api/workspace/leave', { method: 'POST' }),
  preview: (token: string) =>
    api<InvitationPreview>(`/api/invitations/preview?token=${encodeURIComponent(token)}`),
  accept: (token: string) =>
    api<InvitationAccepted>('/api/invitations/accept', { method: 'POST', body: { token } }),
};
