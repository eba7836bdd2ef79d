export { SignupPage } from './SignupPage.tsx';
export { LoginPage } from './LoginPage.tsx';
export { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
export { ResetPasswordPage } from './ResetPasswordPage.tsx';
export { VerifyEmailPage } from './VerifyEmailPage.tsx';
export { VerifyNoticePage } from './VerifyNoticePage.tsx';
export { SettingsPage } from './SettingsPage.tsx';
export { InvitePage } from './InvitePage.tsx';
