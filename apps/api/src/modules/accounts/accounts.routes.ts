import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePasswordRequest,
  ForgotPasswordRequest,
  LoginRequest,
  ResetPasswordRequest,
  SignupRequest,
  UpdateProfileRequest,
  type MeResponse,
  type MessageResponse,
  type UserMessageResponse,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError, TOO_MANY_REQUESTS } from '../../errors/app-error.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { currentUser, requireUser, startSession, stopSession } from '../../plugins/session.ts';
import * as accounts from './accounts.service.ts';

// Mail-sending endpoints: at most 5 mails in 15 minutes to one recipient, whatever the IP or the body sent
// (security.md §2.9: the product must not flood a victim's inbox; §2.1: a per-account limit). The key is who
// gets the mail: the logged-in account for a resend, the address asked for on signup and forgot-password.
const mailLimit = (recipient: (request: FastifyRequest) => string | undefined) => ({
  rateLimit: {
    max: 5,
    timeWindow: '15 minutes',
    keyGenerator: (request: FastifyRequest) =>
      `mail|${recipient(request) ?? `ip:${clientAddress(request.ip)}`}`,
  },
});
const addressAsked = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
};
const loggedInAccount = (request: FastifyRequest) => request.session?.user.id;

export const accountRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();

    // Besides the per-recipient mail limit, one client address may open only so many accounts an hour
    // (security.md §2.9): otherwise one address could create accounts by the thousand, each verification mail
    // carrying a first name of its choosing to an inbox of its choosing.
    const signupsPerIp = app.createRateLimit({
      max: deps.config.signupsPerIpPerHour,
      timeWindow: '1 hour',
      keyGenerator: (request) => `signup|${clientAddress(request.ip)}`,
    });
    const limitSignupsPerIp = async (request: FastifyRequest) => {
      const limit = await signupsPerIp(request);
      if (!limit.isAllowed && limit.isExceeded)
        throw new AppError('RATE_LIMITED', TOO_MANY_REQUESTS, undefined, limit.ttlInSeconds);
    };

    app.get('/auth/me', async (request): Promise<MeResponse> => ({ user: request.session?.user ?? null }));

    app.post(
      '/auth/signup',
      { schema: { body: SignupRequest }, preHandler: limitSignupsPerIp, config: mailLimit(addressAsked) },
      async (request, reply) => {
        // No session and no user in the answer: they would tell a new address from one with an account. The
        // new user verifies by the mailed link, then logs in.
        await accounts.signUp(deps, request.body);
        return reply.status(202).send({ message: accounts.SIGNUP_ACCEPTED } satisfies MessageResponse);
      },
    );

    app.post(
      '/auth/login',
      { schema: { body: LoginRequest } },
      async (request, reply): Promise<UserMessageResponse> => {
        try {
          const user = await accounts.logIn(
            deps,
            request.body.email,
            request.body.password,
            clientAddress(request.ip),
            request.body.captchaToken,
          );
          await startSession(request, reply, deps, user);
          request.log.info({ userId: user.id }, 'login succeeded');
          return { user, message: 'You are now logged in!' };
        } catch (err) {
          request.log.warn(
            { ip: request.ip, code: err instanceof AppError ? err.code : 'ERROR' },
            'login failed',
          );
          throw err;
        }
      },
    );

    app.post('/auth/logout', async (request, reply) => {
      await stopSession(request, reply, deps);
      return reply.status(204).send();
    });

    app.get(
      '/auth/verify',
      { schema: { querystring: z.object({ token: z.string().max(200).optional() }) } },
      async (request): Promise<UserMessageResponse> => {
        if (!request.query.token) throw new AppError('VALIDATION_FAILED', 'Invalid or missing token.');
        const user = await accounts.verifyEmail(deps, request.query.token);
        // Keep the session's copy current so the SPA's re-fetch sees the verified flag at once.
        if (request.session?.user.id === user.id) request.session.user = user;
        return { user, message: 'Email successfully validated!' };
      },
    );

    app.post(
      '/auth/resend-verification',
      { preValidation: requireUser, config: mailLimit(loggedInAccount) },
      async (request): Promise<MessageResponse> => {
        const user = currentUser(request);
        if (user.emailVerified) return { message: 'Your email is already verified.' };
        await accounts.sendVerification(deps, user);
        return { message: 'A new verification link has been sent to your email.' };
      },
    );

    app.post(
      '/auth/forgot-password',
      { schema: { body: ForgotPasswordRequest }, config: mailLimit(addressAsked) },
      async (request): Promise<MessageResponse> => {
        await accounts.forgotPassword(deps, request.body.email);
        return { message: 'A reset link has been sent to your email.' };
      },
    );

    app.post(
      '/auth/reset-password',
      { schema: { body: ResetPasswordRequest } },
      async (request, reply): Promise<MessageResponse> => {
        await accounts.resetPassword(deps, request.body);
        // The reset ended every session, including this browser's if it had one.
        await stopSession(request, reply, deps);
        return { message: 'Password has been reset.' };
      },
    );

    app.post(
      '/auth/update-profile',
      { schema: { body: UpdateProfileRequest }, preValidation: requireUser },
      async (request): Promise<UserMessageResponse> => {
        const user = await accounts.updateProfile(deps, currentUser(request).id, request.body);
        return { user, message: 'Profile updated successfully.' };
      },
    );

    app.post(
      '/auth/change-password',
      { schema: { body: ChangePasswordRequest }, preValidation: requireUser },
      async (request): Promise<MessageResponse> => {
        await accounts.changePassword(
          deps,
          currentUser(request).id,
          request.session!.tokenHash,
          request.body,
        );
        return { message: 'Password updated successfully.' };
      },
    );

    app.delete(
      '/auth/delete-account',
      { preValidation: requireUser },
      async (request, reply): Promise<MessageResponse> => {
        const { id } = currentUser(request);
        await accounts.deleteAccount(deps, id);
        request.session = null;
        await stopSession(request, reply, deps);
        request.log.info({ userId: id }, 'account deleted');
        return { message: 'Your account has been deleted.' };
      },
    );
  };
