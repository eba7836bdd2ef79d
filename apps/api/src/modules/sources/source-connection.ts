import type { Config } from '../../config/env.ts';
import { openToken, sealToken } from '../pixels/token-crypto.ts';
import type { SourceConnection } from '@backsignal/contracts';
import type { SourceRow, StoredConnection } from './sources.repo.ts';
import { fetchUrl, type UrlFetchOptions } from './url-fetch.ts';

/** Each fetch may take this long, body included. */
export const FETCH_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 3;

export const secretAad = (userId: string, sourceId: string) => `source:${userId}:${sourceId}`;

export function storedConnection(c: SourceConnection): StoredConnection {
  return {
    url: c.url.trim(),
    auth: c.auth,
    headerName: c.auth === 'header' ? c.headerName?.trim() || 'Authorization' : null,
    username: c.auth === 'basic' ? (c.username ?? '') : null,
  };
}

/** The secret to store: a new one sealed, undefined to keep the stored one, null when no auth is used. */
export function sealedSecret(config: Config, c: SourceConnection, userId: string, sourceId: string) {
  if (c.auth === 'none') return null;
  if (c.secret) return sealToken(config.tokenKeys, c.secret, secretAad(userId, sourceId));
  return undefined;
}

export const openSecret = (config: Config, s: SourceRow) =>
  s.sealed ? openToken(config.tokenKeys, s.sealed, secretAad(s.userId, s.id)) : null;

function authHeaders(c: StoredConnection, secret: string | null): Record<string, string> {
  if (c.auth === 'header' && secret) return { [c.headerName ?? 'Authorization']: secret };
  if (c.auth === 'basic')
    return {
      authorization: `Basic ${Buffer.from(`${c.username ?? ''}:${secret ?? ''}`).toString('base64')}`,
    };
  return {};
}

/** SSRF rule: private and loopback addresses and plain HTTP only outside production. */
export const fetchOptions = (config: Config, headers: Record<string, string>): UrlFetchOptions => ({
  blockPrivate: config.isProduction,
  allowHttp: !config.isProduction,
  timeoutMs: FETCH_TIMEOUT_MS,
  maxRedirects: MAX_REDIRECTS,
  headers,
});

/** Opens the source's file as a byte stream (CSV URL). */
export function openSourceFile(config: Config, c: StoredConnection, secret: string | null) {
  return fetchUrl(c.url, fetchOptions(config, authHeaders(c, secret)));
}
