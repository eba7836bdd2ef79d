import { z } from 'zod';

/**
 * What a workspace's activity log records (issue 31, decision 0106): stable codes, stored with each entry, so a
 * label can change without touching the log. Member kinds are written by the invitations module.
 */
export const ACTIVITY_KINDS = [
  'workspace.signed_in',
  'workspace.renamed',
  'member.invited',
  'member.joined',
  'member.removed',
  'member.role_changed',
  'file.uploaded',
  'file.replaced',
  'file.deleted',
  'mapping.saved',
  'validation.started',
  'file.validated',
  'send.started',
  'send.finished',
  'pixel.added',
  'pixel.edited',
  'pixel.token_replaced',
  'pixel.tested',
  'pixel.removed',
  'source.created',
  'source.edited',
  'source.paused',
  'source.resumed',
  'source.deleted',
  'source.run_requested',
  'source.run_started',
  'api_key.created',
  'api_key.revoked',
] as const;
export const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  'workspace.signed_in': 'Signed in',
  'workspace.renamed': 'Workspace renamed',
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.role_changed': 'Role changed',
  'file.uploaded': 'File uploaded',
  'file.replaced': 'Fixed file uploaded',
  'file.deleted': 'File deleted',
  'mapping.saved': 'Mapping saved',
  'validation.started': 'Validation run',
  'file.validated': 'File validated',
  'send.started': 'Send started',
  'send.finished': 'Send finished',
  'pixel.added': 'Pixel account added',
  'pixel.edited': 'Pixel account edited',
  'pixel.token_replaced': 'Token replaced',
  'pixel.tested': 'Pixel account tested',
  'pixel.removed': 'Pixel account removed',
  'source.created': 'Source created',
  'source.edited': 'Source edited',
  'source.paused': 'Source paused',
  'source.resumed': 'Source resumed',
  'source.deleted': 'Source deleted',
  'source.run_requested': 'Source run now',
  'source.run_started': 'Scheduled source run',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
};

/** The actor label of entries no person caused: a source's scheduled run. */
export const SCHEDULE_ACTOR = 'schedule';

/** Small facts about an entry: counts, a pixel id, a status. Never a customer's value. */
export const ActivityDetails = z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]));
export type ActivityDetails = z.infer<typeof ActivityDetails>;

export const ActivityEntry = z.object({
  id: z.string(),
  at: z.string(),
  /** Null for the schedule. */
  actorUserId: z.string().nullable(),
  actorLabel: z.string(),
  kind: ActivityKind,
  subject: z.string().nullable(),
  details: ActivityDetails,
  ip: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A day (UTC) or an instant. */
const when = z
  .string()
  .max(40)
  .refine((s) => (DATE.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(s)), {
    message: 'Use a date like 2026-11-28.',
  });

/** `before`: the last entry of the page read, as `<at>,<id>` (the answer's `next`). */
export const ACTIVITY_CURSOR = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+Z),(\d{1,18})$/;

export const ActivityQuery = z.object({
  person: z.uuid({ error: 'Choose a person from the list.' }).optional(),
  kind: ActivityKind.optional(),
  /** From this day (inclusive, from its start) or instant. */
  from: when.optional(),
  /** To this day (inclusive, to its end) or instant. */
  to: when.optional(),
  before: z.string().regex(ACTIVITY_CURSOR, 'Invalid page cursor.').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

export const ActivityPage = z.object({
  entries: z.array(ActivityEntry),
  /** The `before` of the next (older) page, or null on the last. */
  next: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

/** Everyone who appears in the log (also people no longer members), for the person filter. */
export const ActivityPeople = z.object({
  people: z.array(z.object({ userId: z.string(), label: z.string() })),
});
export type ActivityPeople = z.infer<typeof ActivityPeople>;

/** The CSV download's file name. */
export const ACTIVITY_CSV_NAME = 'activity.csv';
