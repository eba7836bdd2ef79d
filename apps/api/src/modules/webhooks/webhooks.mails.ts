import { escapeHtml, type Mail } from '../../integrations/mailer.ts';

/** Three days of failed attempts disabled an endpoint: which one, and how to turn it back on. */
export function endpointDisabledMail(to: string, url: string, link: string): Mail {
  const paragraphs = [
    `Backsignal disabled your webhook endpoint ${url}: every delivery to it failed for three days.`,
    'No events are sent to it until you enable it again. Check that the receiver is online and answers with a 2xx status, then open Settings → Webhooks, look at the delivery log for the answers it gave, and enable the endpoint.',
  ];
  return {
    to,
    subject: 'Backsignal disabled a webhook endpoint',
    text: `${paragraphs.join('\n\n')}\n\n${link}\n`,
    html: `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
