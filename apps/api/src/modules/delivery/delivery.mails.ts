import { explainStop } from '@backsignal/core';
import { escapeHtml, type Mail } from '../../integrations/mailer.ts';
import type { NoticeRow } from './delivery-runs.repo.ts';

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * A send that ended with failed events or stopped: what was sent, what failed, why it stopped and what to do, in
 * our words. Counts and names people gave (file, pixel account, source) only: never a row, nor Meta's own
 * message, which may quote one.
 */
export function sendNoticeMail(to: string, n: NoticeRow, link: string): Mail {
  const what = n.source_name ? `The source "${n.source_name}"` : `The file "${n.file_name ?? 'your file'}"`;
  const counts = `${plural(n.sent, 'event')} reached Meta, ${plural(n.failed, 'event')} failed.`;
  const paragraphs =
    n.status === 'stopped'
      ? (() => {
          // Our own stop messages may quote the file's reader; the summary shows them to who may read the file.
          const reason = n.stop_reason ?? 'internal';
          const e = explainStop(reason, reason === 'internal' ? null : n.stop_error);
          return [
            `${what} stopped sending to the pixel account "${n.account_name}": ${e.title}.`,
            counts,
            e.explanation,
            e.fix,
          ];
        })()
      : [
          `${what} finished sending to the pixel account "${n.account_name}" with failed events.`,
          counts,
          'The summary groups the failed events by Meta’s reason and says how to fix each.',
        ];
  const subject =
    n.status === 'stopped'
      ? `Backsignal stopped sending ${n.source_name ? `for "${n.source_name}"` : `"${n.file_name ?? 'a file'}"`}`
      : `Backsignal: ${plural(n.failed, 'event')} failed in ${n.source_name ? `"${n.source_name}"` : `"${n.file_name ?? 'a file'}"`}`;
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n\n${link}\n`,
    html: `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
