import { randomUUID } from 'node:crypto';
import { keysForStatements, type AuditRequest, type AutomationWaitlistRequest, type ContactRequest } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../app.ts';
import { AppError } from '../../errors/app-error.ts';
import { verifyCaptcha } from '../../integrations/captcha/captcha.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { auditResultMail, opsMail } from './forms.mails.ts';
import { formsRepo, type SubmissionKind } from './forms.repo.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'config' | 'mailer' | 'fetch' | 'now'>;
export const LIMIT_PER_IP = 20;
export const LIMIT_PER_EMAIL = 5;
const REQUIRED = 'Please fill in all required fields.';

/** Captcha first, then the per-IP and per-address hourly limits; nothing is stored or mailed past them. */
async function admit(deps: Deps, ip: string, email: string, captchaToken: string) {
  await verifyCaptcha(deps, captchaToken, ip);
  const counts = await formsRepo.recentCounts(deps.db, ip, email, new Date(deps.now().getTime() - 60 * 60 * 1000));
  if (counts.byIp >= LIMIT_PER_IP || counts.byEmail >= LIMIT_PER_EMAIL) {
    throw new AppError('RATE_LIMITED', 'You have sent several requests in a short time. Please try again in an hour.');
  }
}

async function store(deps: Deps, kind: SubmissionKind, userId: string | null, email: string, ip: string, payload: object) {
  await formsRepo.insert(deps.db, { id: randomUUID(), kind, userId, email, ip, payload });
}

export async function submitContact(deps: Deps, input: ContactRequest, user: SessionUser | null, ip: string) {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : (input.name ?? '').trim();
  const email = user ? user.email : (input.email ?? '').trim();
  if (!name || !email) throw new AppError('VALIDATION_FAILED', REQUIRED);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('VALIDATION_FAILED', 'Please enter a valid email address.');
  await admit(deps, ip, email, input.captchaToken);
  const kind = input.reason === 'lead-ai-waitlist' ? 'lead_ai_waitlist' : 'contact';
  const payload = { name, email, reason: input.reason, message: input.message, loggedIn: !!user };
  await store(deps, kind, user?.id ?? null, email, ip, payload);
  await deps.mailer.send(opsMail(deps.config.opsEmail, kind === 'contact' ? `Contact: ${input.reason} from ${name}` : `Lead-AI waitlist: ${name}`, payload));
  return { message: kind === 'contact' ? 'Message sent successfully!' : "You're on the Waitlist!" };
}

export async function joinAutomationWaitlist(deps: Deps, input: AutomationWaitlistRequest, ip: string) {
  await admit(deps, ip, input.email, input.captchaToken);
  const { captchaToken: _c, ...payload } = input;
  await store(deps, 'automation_waitlist', null, input.email, ip, payload);
  await deps.mailer.send(opsMail(deps.config.opsEmail, `Automation waitlist: ${input.name}`, payload));
  return { message: "You've been added to the waitlist!" };
}

export async function requestAudit(deps: Deps, input: Required<Omit<AuditRequest, 'captchaToken'>> & { captchaToken: string }, ip: string) {
  await admit(deps, ip, input.email, input.captchaToken);
  const keys = keysForStatements(input.leaks);
  const { captchaToken: _c, ...payload } = input;
  await store(deps, 'audit', null, input.email, ip, { ...payload, keys });
  const resultsUrl = `${deps.config.appUrl}/audit-results?leaks=${keys.join(',')}`;
  await deps.mailer.send(opsMail(deps.config.opsEmail, `Audit request: ${input.name} (${input.businessType})`, { ...payload, keys, resultsUrl }));
  await deps.mailer.send(auditResultMail(input.email, input.name, input.businessType, keys, resultsUrl, deps.config.bookACallUrl));
  return { message: 'Your audit is on its way to your inbox.', resultsUrl };
}
