import { z } from 'zod';
import { AUDIT_BUSINESS_TYPES, AUTOMATION_BUSINESS_TYPES, CONTACT_REASONS } from './forms-data.ts';
import { ANALYTICS_EVENTS, ANALYTICS_LIMITS } from './analytics-data.ts';

const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((x) => x.value) as [T[number]['value'], ...T[number]['value'][]];
const REQUIRED = 'Please fill in all required fields.';
const CAPTCHA = 'Please complete the captcha.';
const captchaToken = z.string({ error: CAPTCHA }).min(1, CAPTCHA).max(4096);
const email = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(254)
  .email('Please enter a valid email address.');
const required = (max: number) => z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max);

/** Anonymous visitors give name and email; a logged-in user's come from the session. */
export const ContactRequest = z.object({
  message: required(5000),
  reason: z.enum([...values(CONTACT_REASONS), 'lead-ai-waitlist'], { error: REQUIRED }),
  captchaToken,
  name: z.string().trim().max(200).optional(),
  email: z.string().trim().max(254).optional(),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

export const AutomationWaitlistRequest = z.object({
  name: required(200),
  email,
  businessType: z.enum(values(AUTOMATION_BUSINESS_TYPES), { error: REQUIRED }),
  captchaToken,
  headlineVariant: z.number().int().min(0).max(6).optional(),
  subtextVariant: z.number().int().min(0).max(6).optional(),
});
export type AutomationWaitlistRequest = z.infer<typeof AutomationWaitlistRequest>;

export const AuditRequest = z.object({
  name: required(200),
  email,
  website: z.string().trim().max(500).optional().default(''),
  challenges: z.string().trim().max(5000).optional().default(''),
  businessType: z.enum(values(AUDIT_BUSINESS_TYPES), { error: REQUIRED }),
  leaks: z.array(z.string().max(300)).max(5).default([]),
  captchaToken,
});
export type AuditRequest = z.input<typeof AuditRequest>;

export const AnalyticsBatch = z.object({
  events: z
    .array(
      z.object({
        name: z.enum(ANALYTICS_EVENTS),
        props: z
          .record(
            z.string().max(ANALYTICS_LIMITS.keyLength),
            z.union([z.string().max(ANALYTICS_LIMITS.textLength), z.number(), z.boolean(), z.null()]),
          )
          .refine((p) => Object.keys(p).length <= ANALYTICS_LIMITS.propsPerEvent, {
            message: `At most ${ANALYTICS_LIMITS.propsPerEvent} properties per event.`,
          })
          .default({}),
        path: z.string().max(ANALYTICS_LIMITS.pathLength).default('/'),
        ts: z.number().int().positive(),
      }),
    )
    .min(1)
    .max(ANALYTICS_LIMITS.eventsPerPost),
});
