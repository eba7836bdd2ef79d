import type { SourceSchedule } from '@backsignal/contracts';

export interface SaveFields {
  name: string;
  pixelAccountId: string;
  /** The pixel accounts the user has (undefined while loading). */
  accountIds: string[] | undefined;
  schedule: SourceSchedule;
}

/** What the server's refusal names, by the wizard's field. */
export type SaveProblems = Partial<Record<'name' | 'pixelAccountId' | 'time', string>>;

/**
 * What "Save source" still needs, field by field, in the words the API answers with: shown beside each field
 * and above the button when Save is pressed too early, rather than a button that stays grey without saying why.
 */
export function saveProblems(f: SaveFields): SaveProblems {
  const out: SaveProblems = {};
  if (!f.name.trim()) out.name = 'Give the source a name.';
  if (f.accountIds && !f.accountIds.length) out.pixelAccountId = 'Please select or save an account first';
  else if (f.accountIds && !f.accountIds.includes(f.pixelAccountId))
    out.pixelAccountId = 'Choose the pixel account the rows go to.';
  if (f.schedule.every !== 'hour' && !/^([01]\d|2[0-3]):[0-5]\d$/.test(f.schedule.time))
    out.time = 'Enter the time of day as HH:MM, e.g. 08:00.';
  return out;
}

const LABEL: Record<keyof SaveProblems, string> = {
  name: 'Name',
  pixelAccountId: 'Pixel account',
  time: 'At (HH:MM)',
};

/** "Name: Give the source a name." — one line per field, in the order of the form. */
export const problemLines = (p: SaveProblems) =>
  (Object.keys(LABEL) as (keyof SaveProblems)[]).filter((k) => p[k]).map((k) => `${LABEL[k]}: ${p[k]}`);
