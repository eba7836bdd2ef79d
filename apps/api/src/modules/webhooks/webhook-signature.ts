import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret as the Standard Webhooks specification writes one: whsec_ and 32 random bytes in base64. */
export const newSecret = () => PREFIX + randomBytes(32).toString('base64');

/**
 * The webhook-signature header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with each secret's
 * base64-decoded bytes, space-separated when a rotation keeps the previous secret valid for a while.
 */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: number,
  body: string,
): string {
  const content = `${messageId}.${timestamp}.${body}`;
  return secrets
    .map(
      (s) =>
        'v1,' +
        createHmac('sha256', Buffer.from(s.slice(PREFIX.length), 'base64'))
          .update(content)
          .digest('base64'),
    )
    .join(' ');
}
