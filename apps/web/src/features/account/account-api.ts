import type {
  ChangePasswordRequest,
  LoginRequest,
  MessageResponse,
  ResetPasswordRequest,
  SignupRequest,
  UpdateProfileRequest,
  UserMessageResponse,
} from '@backsignal/contracts';
import { api } from '../../lib/api.ts';

export const accountApi = {
  signup: (body: SignupRequest) => api<MessageResponse>('/auth/signup', { method: 'POST', body }),
  login: (body: LoginRequest) => api<UserMessageResponse>('/auth/login', { method: 'POST', body }),
  verify: (token: string) => api<UserMessageResponse>(`/auth/verify?token=${encodeURIComponent(token)}`),
  resendVerification: () => api<MessageResponse>('/auth/resend-verification', { method: 'POST' }),
  forgotPassword: (email: string) =>
    api<MessageResponse>('/auth/forgot-password', { method: 'POST', body: { email } }),
  resetPassword: (body: ResetPasswordRequest) =>
    api<MessageResponse>('/auth/reset-password', { method: 'POST', body }),
  updateProfile: (body: UpdateProfileRequest) =>
    api<UserMessageResponse>('/auth/update-profile', { method: 'POST', body }),
  changePassword: (body: ChangePasswordRequest) =>
    api<MessageResponse>('/auth/change-password', { method: 'POST', body }),
  deleteAccount: () => api<MessageResponse>('/auth/delete-account', { method: 'DELETE' }),
};
