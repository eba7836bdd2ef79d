import { escapeHtml, type Mail } from '../../integrations/mailer.ts';

const wrap = (
  title: string,
  body: string,
) => `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}
<p style="color:#64748b;font-size:12px;margin-top:32px">Backsignal · offline conversions to Meta, done right</p></body></html>`;

const button = (href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(label)}</a></p><p style="font-size:13px;color:#475569">Or paste this link into your browser: ${escapeHtml(href)}</p>`;

export function verificationMail(to: string, firstName: string, link: string): Mail {
  return {
    to,
    subject: 'Verify your email for Backsignal',
    text: `Hi ${firstName},\n\nConfirm your email address to start sending conversions with Backsignal:\n\n${link}\n\nThe link works once and expires in 24 hours. If you did not sign up, ignore this email.\n`,
    html: wrap(
      `Hi ${firstName}, confirm your email`,
      `<p>Confirm your email address to start sending conversions with Backsignal.</p>${button(link, 'Verify my email')}<p>The link works once and expires in 24 hours. If you did not sign up, ignore this email.</p>`,
    ),
  };
}

export function existingAccountMail(to: string, loginLink: string, resetLink: string): Mail {
  return {
    to,
    subject: 'You already have a Backsignal account',
    text: `Someone (hopefully you) tried to sign up for Backsignal with this email, but you already have an account.\n\nLog in: ${loginLink}\nForgot your password? ${resetLink}\n\nIf this was not you, no action is needed.\n`,
    html: wrap(
      'You already have an account',
      `<p>Someone (hopefully you) tried to sign up with this email, but you already have an account.</p>${button(loginLink, 'Log in')}<p>Forgot your password? <a href="${escapeHtml(resetLink)}">Reset it</a>.</p><p>If this was not you, no action is needed.</p>`,
    ),
  };
}

export function resetMail(to: string, firstName: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your Backsignal password',
    text: `Hi ${firstName},\n\nUse this link to choose a new password:\n\n${link}\n\nIt works once and expires in 1 hour. If you did not ask for it, ignore this email; your password stays the same.\n`,
    html: wrap(
      'Reset your password',
      `<p>Hi ${escapeHtml(firstName)}, use this link to choose a new password.</p>${button(link, 'Choose a new password')}<p>It works once and expires in 1 hour. If you did not ask for it, ignore this email; your password stays the same.</p>`,
    ),
  };
}

export function passwordChangedMail(to: string, firstName: string, supportLink: string): Mail {
  return {
    to,
    subject: 'Your Backsignal password was changed',
    text: `Hi ${firstName},\n\nThe password of your Backsignal account was just changed. If this was you, no action is needed.\nIf it was not, reset your password at once and contact us: ${supportLink}\n`,
    html: wrap(
      'Your password was changed',
      `<p>Hi ${escapeHtml(firstName)}, the password of your Backsignal account was just changed. If this was you, no action is needed.</p><p>If it was not, reset your password at once and <a href="${escapeHtml(supportLink)}">contact us</a>.</p>`,
    ),
  };
}

/** An invitation to a workspace (issue 31): the link works once, for this address, for 7 days. */
export function invitationMail(
  to: string,
  i: { inviter: string; workspace: string; role: string; link: string },
): Mail {
  const intro = `${i.inviter} invited you to join the workspace ${i.workspace} on Backsignal as ${i.role}.`;
  const how = `Log in, or sign up, with this address (${to}) and open the link. It works once and expires in 7 days.`;
  return {
    to,
    subject: `${i.inviter} invited you to ${i.workspace} on Backsignal`,
    text: `Hi,\n\n${intro}\n\n${i.link}\n\n${how} If you did not expect this invitation, ignore this email.\n`,
    html: wrap(
      `Join ${i.workspace} on Backsignal`,
      `<p>${escapeHtml(intro)}</p>${button(i.link, 'Accept the invitation')}<p>${escapeHtml(how)} If you did not expect this invitation, ignore this email.</p>`,
    ),
  };
}
