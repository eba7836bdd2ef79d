import { randomBytes } from 'node:crypto';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { hmac, safeEqual, tokenHash } from '../../lib/tokens.ts';

const MESSAGE = 'Please complete the captcha.';
const DEV_TTL_MS = 10 * 60 * 1000;
const SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Development captcha (no keys outside production): a signed, expiring token the dev widget fetches. */
export function issueDevToken(config: Config, nowMs: number): string {
  const body = `dev.${randomBytes(12).toString('base64url')}.${nowMs + DEV_TTL_MS}`;
  return `${body}.${hmac(config.sessionSecret, body)}`;
}

function devTokenValid(config: Config, token: string, nowMs: number): boolean {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'dev') return false;
  const body = parts.slice(0, 3).join('.');
  return safeEqual(parts[3]!, hmac(config.sessionSecret, body)) && Number(parts[2]) > nowMs;
}

/**
 * Verifies a captcha token for a form, on the server, once: Turnstile's siteverify with real keys, the signed
 * development token otherwise. Any failure (missing, invalid, replayed) is the spec's message.
 */
export async function verifyCaptcha(
  deps: { config: Config; db: Queryable; fetch: typeof fetch; now: () => Date },
  token: string | undefined,
  ip: string,
): Promise<void> {
  const { config } = deps;
  if (config.captcha.disabled) return;
  if (!token) throw new AppError('CAPTCHA_FAILED', MESSAGE);
  let ok: boolean;
  if (config.captcha.secret) {
    try {
      const res = await deps.fetch(SITEVERIFY, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: config.captcha.secret, response: token, remoteip: ip }),
        signal: AbortSignal.timeout(10_000),
      });
      ok = ((await res.json()) as { success?: boolean }).success === true;
    } catch {
      ok = false;
    }
  } else ok = devTokenValid(config, token, deps.now().getTime());
  if (!ok) throw new AppError('CAPTCHA_FAILED', MESSAGE);
  // Tokens live minutes (Turnstile 5, development 10): hashes older than a day can never be replayed.
  await deps.db.query(`delete from used_captcha_tokens where used_at < now() - interval '1 day'`);
  const fresh = await deps.db.query(
    'insert into used_captcha_tokens (token_hash) values ($1) on conflict do nothing',
    [tokenHash(token)],
  );
  if (fresh.rowCount === 0) throw new AppError('CAPTCHA_FAILED', MESSAGE);
}
