import { randomUUID } from 'node:crypto';
import {
  keysForStatements,
  type AuditRequest,
  type AutomationWaitlistRequest,
  type ContactRequest,
} from '@backsignal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ResolvedDeps } from '../../deps.ts';
import type { Mail } from '../../integrations/mailer.ts';
import { AppError } from '../../errors/app-error.ts';
import { verifyCaptcha } from '../../integrations/captcha/captcha.ts';
import { clientAddress } from '../../lib/client-address.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { auditResultMail, opsMail } from './forms.mails.ts';
import { formsRepo, type SubmissionKind } from './forms.repo.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'config' | 'mailer' | 'fetch' | 'now'> & {
  log?: Pick<FastifyBaseLogger, 'error'>;
};
export const LIMIT_PER_IP = 20;
export const LIMIT_PER_EMAIL = 5;
const REQUIRED = 'Please fill in all required fields.';

/** Captcha first, then the per-IP and per-address hourly limits; nothing is stored or mailed past them. */
async function admit(deps: Deps, ip: string, email: string, captchaToken: string) {
  await verifyCaptcha(deps, captchaToken, ip);
  const counts = await formsRepo.recentCounts(
    deps.db,
    clientAddress(ip),
    email,
    new Date(deps.now().getTime() - 60 * 60 * 1000),
  );
  if (counts.byIp >= LIMIT_PER_IP || counts.byEmail >= LIMIT_PER_EMAIL) {
    throw new AppError(
      'RATE_LIMITED',
      'You have sent several requests in a short time. Please try again in an hour.',
    );
  }
}

/**
 * Once a submission is stored it has succeeded: its mails go out after the answer, best-effort, in order.
 * A failing mailer is logged (with the submission id, to resend by hand) and never turns the visitor's
 * request into an error, nor makes them submit (and store) it again.
 */
function mailAfterStore(deps: Deps, submissionId: string, mails: Mail[]): Promise<void> {
  const run = async () => {
    for (const mail of mails) {
      try {
        await deps.mailer.send(mail);
      } catch (err) {
        deps.log?.error(
          { err, submissionId, subject: mail.subject },
          'form mail failed; the submission is stored',
        );
      }
    }
  };
  return run();
}

async function store(
  deps: Deps,
  kind: SubmissionKind,
  userId: string | null,
  email: string,
  ip: string,
  payload: object,
) {
  const id = randomUUID();
  // Stored as the limits count it: an IPv6 client's /64, not its address.
  await formsRepo.insert(deps.db, { id, kind, userId, email, ip: clientAddress(ip), payload });
  return id;
}

export async function submitContact(deps: Deps, input: ContactRequest, user: SessionUser | null, ip: string) {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : (input.name ?? '').trim();
  const email = user ? user.email : (input.email ?? '').trim();
  if (!name || !email) throw new AppError('VALIDATION_FAILED', REQUIRED);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AppError('VALIDATION_FAILED', 'Please enter a valid email address.');
  await admit(deps, ip, email, input.captchaToken);
  const kind = input.reason === 'lead-ai-waitlist' ? 'lead_ai_waitlist' : 'contact';
  const payload = { name, email, reason: input.reason, message: input.message, loggedIn: !!user };
  const id = await store(deps, kind, user?.id ?? null, email, ip, payload);
  void mailAfterStore(deps, id, [
    opsMail(
      deps.config.opsEmail,
      kind === 'contact' ? `Contact: ${input.reason} from ${name}` : `Lead-AI waitlist: ${name}`,
      payload,
    ),
  ]);
  return { message: kind === 'contact' ? 'Message sent successfully!' : "You're on the Waitlist!" };
}

export async function joinAutomationWaitlist(deps: Deps, input: AutomationWaitlistRequest, ip: string) {
  await admit(deps, ip, input.email, input.captchaToken);
  const { captchaToken: _c, ...payload } = input;
  const id = await store(deps, 'automation_waitlist', null, input.email, ip, payload);
  void mailAfterStore(deps, id, [
    opsMail(deps.config.opsEmail, `Automation waitlist: ${input.name}`, payload),
  ]);
  return { message: "You've been added to the waitlist!" };
}

export async function requestAudit(
  deps: Deps,
  input: Required<Omit<AuditRequest, 'captchaToken'>> & { captchaToken: string },
  ip: string,
) {
  await admit(deps, ip, input.email, input.captchaToken);
  const keys = keysForStatements(input.leaks);
  const { captchaToken: _c, ...payload } = input;
  const id = await store(deps, 'audit', null, input.email, ip, { ...payload, keys });
  const resultsUrl = `${deps.config.appUrl}/audit-results?leaks=${keys.join(',')}`;
  void mailAfterStore(deps, id, [
    opsMail(deps.config.opsEmail, `Audit request: ${input.name} (${input.businessType})`, {
      ...payload,
      keys,
      resultsUrl,
    }),
    auditResultMail(input.email, input.name, input.businessType, keys, resultsUrl, deps.config.bookACallUrl),
  ]);
  return { message: 'Your audit is on its way to your inbox.', resultsUrl };
}
