import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url: session, verification and reset tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256, so a database leak yields no usable token. */
export const tokenHash = (token: string): string => hash('sha256', token, 'hex');

export const hmac = (secret: string, value: string): string =>
  createHmac('sha256', secret).update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
