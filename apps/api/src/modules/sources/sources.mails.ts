import { escapeHtml, type Mail } from '../../integrations/mailer.ts';

function mail(to: string, subject: string, paragraphs: string[], link: string): Mail {
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n\n${link}\n`,
    html: `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

/** A run sent nothing and paused its source: the sheet's columns or rows changed. */
export const sourcePausedMail = (to: string, sourceName: string, reason: string, link: string) =>
  mail(
    to,
    `Backsignal paused your source "${sourceName}"`,
    [
      `Your source "${sourceName}" was paused and sent nothing to Meta this time.`,
      reason,
      'The file’s columns probably changed. Check the file and the source’s column mapping, then resume the source.',
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
