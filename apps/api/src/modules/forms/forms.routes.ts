import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnalyticsBatch,
  AuditRequest,
  AutomationWaitlistRequest,
  ContactRequest,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { issueDevToken } from '../../integrations/captcha/captcha.ts';
import { AppError } from '../../errors/app-error.ts';
import { recordAnalytics } from './analytics.service.ts';
import * as forms from './forms.service.ts';

/**
 * Public forms (spec §7). Waitlist, audit and analytics carry no credentials, so they have no session to
 * protect and skip XSRF; contact may come from a logged-in user and then carries the XSRF header.
 */
export const formRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const noXsrf = { xsrf: false, rateLimit: { max: 30, timeWindow: '1 minute' } };

    app.get(
      '/api/captcha/dev',
      { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request, reply) => {
        if (deps.config.captcha.secret || deps.config.isProduction)
          throw new AppError('NOT_FOUND', 'Not found');
        return reply
          .header('cache-control', 'no-store')
          .send({ token: issueDevToken(deps.config, deps.now().getTime()) });
      },
    );

    app.post(
      '/api/contact',
      { schema: { body: ContactRequest }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) =>
        forms.submitContact(
          { ...deps, log: request.log },
          request.body,
          request.session?.user ?? null,
          request.ip,
        ),
    );

    app.post(
      '/api/automation-waitlist',
      { schema: { body: AutomationWaitlistRequest }, config: noXsrf },
      async (request) =>
        forms.joinAutomationWaitlist({ ...deps, log: request.log }, request.body, request.ip),
    );

    app.post('/api/audit', { schema: { body: AuditRequest }, config: noXsrf }, async (request) =>
      forms.requestAudit(
        { ...deps, log: request.log },
        request.body as Parameters<typeof forms.requestAudit>[1],
        request.ip,
      ),
    );

    app.post(
      '/api/analytics',
      {
        schema: { body: AnalyticsBatch },
        // No XSRF token (the beacon carries no credentials), so events are never tied to the session's user;
        // same-origin and per-address limits are checked in recordAnalytics.
        config: { xsrf: false, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        await recordAnalytics(deps, request, request.body);
        return reply.status(204).send();
      },
    );
  };
