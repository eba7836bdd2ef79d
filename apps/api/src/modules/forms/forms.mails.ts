import { AUDIT_BUSINESS_TYPES, auditScore, LEAK_STATEMENTS, type LeakKey } from '@backsignal/contracts';
import { escapeHtml, type Mail } from '../../integrations/mailer.ts';

/** A plain notification to the operations inbox: every field, escaped. */
export function opsMail(to: string, subject: string, fields: Record<string, unknown>): Mail {
  const lines = Object.entries(fields).map(
    ([k, v]) => `${k}: ${Array.isArray(v) ? v.join('; ') : String(v ?? '')}`,
  );
  return {
    to,
    subject,
    text: `${lines.join('\n')}\n`,
    html: `<table>${Object.entries(fields)
      .map(
        ([k, v]) =>
          `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(Array.isArray(v) ? v.join('; ') : String(v ?? ''))}</td></tr>`,
      )
      .join('')}</table>`,
  };
}

const FIXES: Record<LeakKey, string> = {
  callTracking:
    'Use dynamic call tracking numbers per campaign so every call is tied to the ad that drove it.',
  callToJobTracking:
    'Tag each call with its outcome in your CRM or call tracking tool (booked, quoted, no-fit).',
  revenueReporting: 'Record the job value against each lead so you can report revenue, not just lead counts.',
  offlineConversions:
    'Send booked jobs back to Meta and Google as offline conversions (Backsignal does this from a CSV) so their algorithms optimise for jobs, not form fills.',
  campaignAttribution:
    'Report cost per booked job and return on ad spend per campaign, then move budget to the winners.',
};

export function auditResultMail(
  to: string,
  name: string,
  businessType: string,
  keys: LeakKey[],
  resultsUrl: string,
  bookUrl: string,
): Mail {
  const s = auditScore(keys);
  const missing = LEAK_STATEMENTS.filter((l) => !keys.includes(l.key));
  const label = AUDIT_BUSINESS_TYPES.find((b) => b.value === businessType)?.label ?? businessType;
  const text = [
    `Hi ${name},`,
    '',
    `Your ad-tracking score is ${s.score}/100: ${s.verdict}.`,
    s.costLine ?? '',
    '',
    missing.length ? 'What to fix first:' : 'Everything we check is in place. Nice work.',
    ...missing.map((m, i) => `${i + 1}. ${FIXES[m.key]}`),
    '',
    `Your full results: ${resultsUrl}`,
    `Want help fixing this for your ${label} business? Book a free strategy session: ${bookUrl}`,
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(name)},</p><p>Your ad-tracking score is <strong>${s.score}/100</strong>: ${escapeHtml(s.verdict)}.</p>${
    s.costLine ? `<p>${escapeHtml(s.costLine)}</p>` : ''
  }${missing.length ? `<p>What to fix first:</p><ol>${missing.map((m) => `<li>${escapeHtml(FIXES[m.key])}</li>`).join('')}</ol>` : ''}<p><a href="${escapeHtml(resultsUrl)}">See your full results</a> · <a href="${escapeHtml(bookUrl)}">Book a free strategy session</a></p>`;
  return { to, subject: `Your ad tracking audit: ${s.score}/100`, text, html };
}
