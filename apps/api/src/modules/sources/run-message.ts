import {
  explainMetaError,
  explainStop,
  parseGraphError,
  UNKNOWN_ERROR_FORMAT,
  type ErrorExplanation,
  type Verdict,
  verdictFor,
} from '@backsignal/core';

/** What the owner of a source does next: the summary's fixes speak of sending a file again, a source runs again. */
const NEXT: Record<Verdict | 'internal', string> = {
  token:
    'Save a new access token for the pixel account on Pixel Accounts, then resume the source: its next run sends what Meta did not receive.',
  permission:
    'Generate the token from the pixel itself in Events Manager and save it on Pixel Accounts: the next run sends what Meta did not receive.',
  pixel:
    'Check the pixel ID of the pixel account on Pixel Accounts: the next run sends what Meta did not receive.',
  endpoint: 'Nothing is wrong with your rows. Contact us; the next run tries again.',
  retry: 'The next run tries again.',
  bad_rows: 'Correct those rows in the file: the next run sends them.',
  internal: 'The next run reads the file again; events the pixel already received are skipped.',
};

const words = (e: ErrorExplanation, next: string) => {
  const meta =
    e.metaMessage === UNKNOWN_ERROR_FORMAT
      ? ''
      : ` Meta said: "${[e.metaTitle, e.metaMessage].filter(Boolean).join(': ')}"`;
  return `${e.title}. ${e.explanation}${meta} ${next}`;
};

/**
 * Why a run's send stopped, in plain words: our explanation, Meta's own message and what to do. The send run
 * keeps Meta's raw answer (the summary reads it); the run history never shows that JSON.
 */
export function stopMessage(reason: string, stored: string | null): string {
  const r = (reason in NEXT ? reason : 'internal') as Verdict | 'internal';
  return words(explainStop(r, stored), NEXT[r]);
}

/** Run messages stored before issue 29 may be Meta's raw answer: shown in plain words too. */
export function plainRunMessage(message: string | null): string | null {
  const e = message ? parseGraphError(message) : null;
  if (!e) return message;
  const verdict = verdictFor(400, e);
  return words(explainMetaError(message, verdict), NEXT[verdict]);
}
