import { escapeHtml, type Mail } from '../../integrations/mailer.ts';

function mail(to: string, subject: string, paragraphs: string[], link: string): Mail {
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n\n${link}\n`,
    html: `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

/** Why a run paused its source: the mail names it and says what to do. */
export type PauseCause = 'bad_rows' | 'columns' | 'file' | 'account' | 'host_key';

const PAUSE_TEXT: Record<PauseCause, { what: string; todo: string }> = {
  bad_rows: {
    what: 'too many rows have errors',
    todo: 'Open the source to see the rows with errors and why. Correct them in the file (or in the export that writes it), then resume the source. To skip such rows instead, raise the source’s error threshold with Edit, then resume.',
  },
  columns: {
    what: 'mapped columns are gone',
    todo: 'The file’s columns changed. Put the columns back in the export, or open the source, choose Edit and map the new column names, then resume the source.',
  },
  file: {
    what: 'the file could not be read',
    todo: 'Check that the file is still a CSV export with the same header row, then resume the source.',
  },
  account: {
    what: 'its pixel account was deleted',
    todo: 'Open the source, choose Edit and pick another pixel account, then resume the source.',
  },
  host_key: {
    what: 'the SFTP server’s key changed',
    todo: 'Ask the server’s administrator whether its key changed. If it did, open the source, choose Edit, run "Test fetch" and trust the new key, then resume the source.',
  },
};

/** The cause in a few words ("too many rows have errors"), for the activity log. */
export const pauseWhat = (cause: PauseCause) => PAUSE_TEXT[cause].what;

/** A run sent nothing and paused its source: what went wrong, in the run's words, and what to do. */
export const sourcePausedMail = (
  to: string,
  sourceName: string,
  cause: PauseCause,
  reason: string,
  link: string,
) =>
  mail(
    to,
    `Backsignal paused your source "${sourceName}": ${PAUSE_TEXT[cause].what}`,
    [
      `Your source "${sourceName}" was paused and sent nothing to Meta this time, because ${PAUSE_TEXT[cause].what}.`,
      reason,
      PAUSE_TEXT[cause].todo,
    ],
    link,
  );

/** Meta no longer accepts the pixel account's token: every source sending to it paused, one mail. */
export const tokenExpiredMail = (to: string, accountName: string, sourceNames: string[], link: string) =>
  mail(
    to,
    `Backsignal paused ${sourceNames.length === 1 ? 'a source' : `${sourceNames.length} sources`}: reconnect "${accountName}"`,
    [
      `Meta no longer accepts the access token of the pixel account "${accountName}" (the token expired or was revoked).`,
      `These sources are paused until you save a new token and resume them: ${sourceNames.join(', ')}.`,
    ],
    link,
  );
