import { randomUUID } from 'node:crypto';
import type {
  ChangePasswordRequest,
  ResetPasswordData,
  SignupData,
  UpdateProfileData,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import type { Mail } from '../../integrations/mailer.ts';
import { AppError } from '../../errors/app-error.ts';
import { verifyCaptcha } from '../../integrations/captcha/captcha.ts';
import { newToken, tokenHash } from '../../lib/tokens.ts';
import { endOtherSessions } from '../sessions/sessions.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { emailTokensRepo, type TokenPurpose } from './email-tokens.repo.ts';
import { loginThrottleRepo } from './login-throttle.repo.ts';
import { burnPasswordCheck, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { createWorkspace, firstWorkspaceName } from '../workspaces/workspaces.service.ts';
import { workspacesRepo } from '../workspaces/workspaces.repo.ts';
import { publicUser, usersRepo } from './users.repo.ts';
import { existingAccountMail, passwordChangedMail, resetMail, verificationMail } from './account-mails.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'mailer' | 'config' | 'now'>;

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;
/**
 * One account's failures from every address together: ASVS 4 §2.2.1's ceiling of 100 an hour. One address
 * cannot reach it (10 per 15 minutes is at most 40 an hour), so it takes a distributed attack to hold an
 * account there, and a password reset lifts it.
 */
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
export const ACCOUNT_MAX_FAILURES = 100;
/** How long failure rows matter: the longest window. */
export const LOGIN_FAILURES_KEPT_MS = Math.max(LOGIN_WINDOW_MS, ACCOUNT_WINDOW_MS);

const INVALID_LOGIN = 'Invalid email or password';
const INVALID_TOKEN = 'Invalid or expired token.';

function refuseCommon(password: string) {
  if (isCommonPassword(password)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'This password is too common. Please choose a less predictable one.',
      {
        password: 'common',
      },
    );
  }
}

async function issueToken(deps: Deps, userId: string, purpose: TokenPurpose): Promise<string> {
  const token = newToken();
  // A new link makes older links of the same kind useless.
  await emailTokensRepo.deleteForUser(deps.db, userId, purpose);
  const ttl = purpose === 'verify' ? VERIFY_TTL_MS : RESET_TTL_MS;
  await emailTokensRepo.insert(deps.db, {
    tokenHash: tokenHash(token),
    userId,
    purpose,
    expiresAt: new Date(deps.now().getTime() + ttl),
  });
  return token;
}

async function consumeToken(deps: Deps, token: string, purpose: TokenPurpose): Promise<string> {
  const hit = await emailTokensRepo.consume(deps.db, tokenHash(token), purpose);
  if (!hit || hit.expiresAt.getTime() <= deps.now().getTime())
    throw new AppError('VALIDATION_FAILED', INVALID_TOKEN);
  return hit.userId;
}

export async function sendVerification(deps: Deps, user: SessionUser): Promise<void> {
  const token = await issueToken(deps, user.id, 'verify');
  await deps.mailer.send(
    verificationMail(user.email, user.firstName, `${deps.config.appUrl}/verify?token=${token}`),
  );
}

/** The one answer to every accepted signup, new address or not (spec: 'Check your inbox to continue'). */
export const SIGNUP_ACCEPTED = 'Check your inbox to continue.';

/**
 * Creates an unverified account and mails its verification link. For an address that already has an account,
 * that account's owner gets a notice with a sign-in and a reset link instead. The caller cannot tell which
 * happened: both do the same work up to the insert, mail in the background, start no session and get the same
 * answer (security.md §2.1; docs/decisions/0010).
 */
export async function signUp(deps: Deps, input: SignupData): Promise<void> {
  refuseCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  // The account and its first workspace ("<Company>", owned by it) exist together or not at all.
  const created = await deps.db.transaction(async (tx) => {
    const id = randomUUID();
    const u = await usersRepo.insert(tx, { id, ...input, passwordHash });
    if (u) {
      await createWorkspace(tx, { id, name: firstWorkspaceName(u), ownerId: id });
      await workspacesRepo.setCurrent(tx, id, id);
    }
    return u;
  });
  if (!created) {
    const app = deps.config.appUrl;
    mailInBackground(deps, existingAccountMail(input.email, `${app}/login`, `${app}/forgot-password`));
    return;
  }
  const user = publicUser(created);
  void sendVerification(deps, user).catch((err: unknown) => logMailFailure('Verify your email', err));
}

interface FailureLimit {
  key: string;
  max: number;
  windowMs: number;
  refusal: string;
  /**
   * Past the limit, asks for proof of a person instead of refusing (the account limit): without it every address,
   * the owner's too, would be refused for an hour once a distributed guesser passed it (issue 21). Throws when the
   * proof is missing or wrong; resolving lets the attempt go on.
   */
  pastLimit?: () => Promise<void>;
}

/** What a login past its account's failure limit answers without a captcha token. */
export const CAPTCHA_REQUIRED_MESSAGE =
  'Too many failed login attempts on this account. Please complete the captcha to log in.';

const accountKey = (email: string) => `email:${email.toLowerCase()}`;
const changeKey = (userId: string) => `change:${userId}`;
/** 10 in 15 minutes: one client address, or one session's guesses at its own password. */
const shortLimit = (key: string): FailureLimit => ({
  key,
  max: LOGIN_MAX_FAILURES,
  windowMs: LOGIN_WINDOW_MS,
  refusal: 'Too many failed login attempts. Please wait 15 minutes and try again.',
});
const accountLimit = (email: string, pastLimit?: FailureLimit['pastLimit']): FailureLimit => ({
  key: accountKey(email),
  max: ACCOUNT_MAX_FAILURES,
  windowMs: ACCOUNT_WINDOW_MS,
  refusal:
    'Too many failed login attempts on this account. Please wait an hour, or reset your password to log in now.',
  pastLimit,
});

/**
 * Runs one password check under failure limits. The attempt is recorded before the check and taken back if
 * it succeeds, so parallel guesses cannot all slip under a limit by reading the count before any of them is
 * written.
 */
async function throttled(
  deps: Deps,
  limits: FailureLimit[],
  check: () => Promise<boolean>,
): Promise<boolean> {
  const now = deps.now().getTime();
  const ids = await loginThrottleRepo.record(
    deps.db,
    limits.map((l) => l.key),
    new Date(now),
  );
  const counts = await loginThrottleRepo.countSince(
    deps.db,
    limits.map((l) => ({ key: l.key, since: new Date(now - l.windowMs) })),
  );
  const over = limits.filter((l) => (counts[l.key] ?? 0) > l.max);
  const refused = over.find((l) => !l.pastLimit);
  try {
    if (refused) throw new AppError('RATE_LIMITED', refused.refusal);
    for (const l of over) await l.pastLimit!();
  } catch (err) {
    // A refused attempt does not count, so the owner gets back in once the window has passed.
    await loginThrottleRepo.forget(deps.db, ids);
    throw err;
  }
  const ok = await check();
  if (ok) await loginThrottleRepo.forget(deps.db, ids);
  return ok;
}

/**
 * Checks credentials under two limits (ADR 0010): one address's failures, on any accounts, and one account's
 * failures from every address. Neither lets a single address lock an owner out: its guesses stop at its own
 * limit, far below the account's. Past the account's limit (many addresses guessing) every attempt needs a
 * captcha instead of being refused, so the owner still gets in at once; with captchas turned off
 * (CAPTCHA_DISABLED) the account limit refuses as before.
 */
export async function logIn(
  deps: Deps & Pick<ResolvedDeps, 'fetch'>,
  email: string,
  password: string,
  ip: string,
  captchaToken?: string,
): Promise<SessionUser> {
  const user = await usersRepo.findByEmail(deps.db, email);
  const captcha = deps.config.captcha.disabled
    ? undefined
    : async () => {
        if (!captchaToken) throw new AppError('CAPTCHA_REQUIRED', CAPTCHA_REQUIRED_MESSAGE);
        await verifyCaptcha(deps, captchaToken, ip);
      };
  const ok = await throttled(deps, [shortLimit(`ip:${ip}`), accountLimit(email, captcha)], async () =>
    user ? verifyPassword(user.passwordHash, password) : (await burnPasswordCheck(password), false),
  );
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', INVALID_LOGIN);
  return publicUser(user);
}

export async function verifyEmail(deps: Deps, token: string): Promise<SessionUser> {
  const userId = await consumeToken(deps, token, 'verify');
  await usersRepo.markVerified(deps.db, userId);
  const user = await usersRepo.findById(deps.db, userId);
  if (!user) throw new AppError('VALIDATION_FAILED', INVALID_TOKEN);
  return publicUser(user);
}

/**
 * Same answer in the same time whether or not the address has an account: the request does one lookup either
 * way, and the reset link is written and mailed after the answer, since the token's writes (and an SMTP round
 * trip) would otherwise tell a prober which addresses exist (issue 30).
 */
export async function forgotPassword(deps: Deps, email: string): Promise<void> {
  const user = await usersRepo.findByEmail(deps.db, email);
  if (!user) return;
  void issueToken(deps, user.id, 'reset')
    .then((token) =>
      deps.mailer.send(
        resetMail(user.email, user.firstName, `${deps.config.appUrl}/reset-password?token=${token}`),
      ),
    )
    .catch((err: unknown) => logMailFailure('Reset your Backsignal password', err));
}

function logMailFailure(subject: string, err: unknown): void {
  console.error(
    JSON.stringify({
      level: 50,
      msg: 'mail failed',
      subject,
      err: err instanceof Error ? err.message : String(err),
    }),
  );
}

function mailInBackground(deps: Deps, mail: Mail): void {
  deps.mailer.send(mail).catch((err: unknown) => logMailFailure(mail.subject, err));
}

/** Sets a new password from a reset link and ends every session of the account. */
export async function resetPassword(deps: Deps, input: ResetPasswordData) {
  refuseCommon(input.password);
  const userId = await consumeToken(deps, input.token, 'reset');
  const user = await usersRepo.findById(deps.db, userId);
  if (!user) throw new AppError('VALIDATION_FAILED', INVALID_TOKEN);
  await usersRepo.setPasswordHash(deps.db, userId, await hashPassword(input.password));
  // The guesses held against the account were at a password that is gone, and its owner must get in at once.
  await loginThrottleRepo.clear(deps.db, [accountKey(user.email), changeKey(userId)]);
  await endOtherSessions(deps.db, userId);
  await deps.mailer.send(passwordChangedMail(user.email, user.firstName, `${deps.config.appUrl}/contact`));
}

export async function updateProfile(deps: Deps, userId: string, input: UpdateProfileData) {
  const user = await usersRepo.updateProfile(deps.db, userId, input);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return publicUser(user);
}

/** Keeps the current session, ends the others, and tells the owner by mail. */
export async function changePassword(
  deps: Deps,
  userId: string,
  sessionHash: string,
  input: ChangePasswordRequest,
) {
  const user = await usersRepo.findById(deps.db, userId);
  // Throttled like login: a stolen session must not become a password-guessing oracle.
  const ok =
    user &&
    (await throttled(deps, [shortLimit(changeKey(userId))], () =>
      verifyPassword(user.passwordHash, input.currentPassword),
    ));
  if (!user || !ok) {
    throw new AppError('VALIDATION_FAILED', 'Current password is incorrect.', {
      currentPassword: 'incorrect',
    });
  }
  refuseCommon(input.newPassword);
  await usersRepo.setPasswordHash(deps.db, userId, await hashPassword(input.newPassword));
  await endOtherSessions(deps.db, userId, sessionHash);
  await emailTokensRepo.deleteForUser(deps.db, userId, 'reset');
  await deps.mailer.send(passwordChangedMail(user.email, user.firstName, `${deps.config.appUrl}/contact`));
}

/**
 * Deletes the account with the workspaces it alone owns, and everything in them. A workspace it alone owns that
 * others are in must be handed over or deleted first: deleting the account must not take a team's work with it.
 */
export async function deleteAccount(deps: Deps, userId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const owned = await workspacesRepo.soleOwnerships(tx, userId);
    const shared = owned.find((w) => w.shared);
    if (shared)
      throw new AppError(
        'CONFLICT',
        `You are the only owner of the workspace "${shared.name}", which has other members. Make another member an owner, or delete the workspace, first.`,
      );
    await workspacesRepo.delete(
      tx,
      owned.map((w) => w.id),
    );
    await usersRepo.delete(tx, userId);
  });
}
