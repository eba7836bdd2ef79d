import { z } from 'zod';

export const User = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof User>;

/** GET /auth/me: the user, or null when logged out (200 either way, so a logged-out load is not an error). */
export const MeResponse = z.object({ user: User.nullable() });
export type MeResponse = z.infer<typeof MeResponse>;

/** Spec §3: descriptive only; the role changes nothing. */
export const ROLES = [
  'Business Owner',
  'Customer Support Ops',
  'Data Science',
  'Sales Ops',
  'Other',
  'HR & Recruiting Ops',
  'Engineering',
  'Project Management',
  'Marketing & Marketing Ops',
  'IT',
] as const;

export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<>';
export const PASSWORD_MAX = 256;

/** Spec §5 strength rules, checked in the spec's order; the first failing rule's message, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return 'Password must be at least 8 characters long.';
  if (!/\d/.test(password)) return 'Password must include at least one number.';
  if (!/[A-Z]/.test(password)) return 'Password must include at least one uppercase letter.';
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c))) {
    return 'Password must include at least one special character.';
  }
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters long.`;
  return null;
}

const email = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .email('Please enter a valid email address.')
  .transform((v) => v.toLowerCase());

const strongPassword = z.string({ error: 'Password is required.' }).superRefine((pw, ctx) => {
  const problem = passwordProblem(pw);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const name = (label: string, max = 100) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long.`);
const optionalText = (max: number) => z.string().trim().max(max).optional().default('');

export const SignupRequest = z.object({
  email,
  firstName: name('First name'),
  lastName: optionalText(100),
  password: strongPassword,
  company: optionalText(200),
  role: optionalText(100),
});
export type SignupRequest = z.input<typeof SignupRequest>;
export type SignupData = z.output<typeof SignupRequest>;

export const LoginRequest = z.object({
  email,
  password: z
    .string({ error: 'Password is required.' })
    .min(1, 'Password is required.')
    .max(PASSWORD_MAX * 4),
  /** Sent once the API answered CAPTCHA_REQUIRED (an account under a distributed guessing attack). */
  captchaToken: z.string().max(4096).optional(),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const ForgotPasswordRequest = z.object({ email });
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordRequest>;

export const ResetPasswordRequest = z.object({
  token: z.string({ error: 'Invalid or missing token.' }).min(1, 'Invalid or missing token.').max(200),
  password: strongPassword,
});
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;
export type ResetPasswordData = z.output<typeof ResetPasswordRequest>;

export const UpdateProfileRequest = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  company: optionalText(200),
  role: optionalText(100),
});
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequest>;
export type UpdateProfileData = z.output<typeof UpdateProfileRequest>;

export const ChangePasswordRequest = z.object({
  currentPassword: z
    .string()
    .min(1, 'Current password is required.')
    .max(PASSWORD_MAX * 4),
  newPassword: strongPassword,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const UserMessageResponse = z.object({ user: User, message: z.string() });
export type UserMessageResponse = z.infer<typeof UserMessageResponse>;
