import type { Config } from '../../config/env.ts';
import { AppError } from '../../errors/app-error.ts';
import { openToken, sealToken } from '../pixels/token-crypto.ts';
import type { SourceConnection, SourceConnectionView } from '@backsignal/contracts';
import type { SourceRow, StoredConnection, StoredCsvUrl } from './sources.repo.ts';
import { sourceAddressRule } from './ssrf.ts';
import { fetchUrl, type UrlFetchOptions } from './url-fetch.ts';

/** Each fetch may take this long, body included. */
export const FETCH_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 3;

export const secretAad = (workspaceId: string, sourceId: string) => `source:${workspaceId}:${sourceId}`;

/** What is stored of a connection: everything but the secret. */
export function storedConnection(c: SourceConnection): StoredConnection {
  switch (c.kind) {
    case 'csv_url':
      return {
        kind: 'csv_url',
        url: c.url.trim(),
        auth: c.auth,
        headerName: c.auth === 'header' ? c.headerName?.trim() || 'Authorization' : null,
        username: c.auth === 'basic' ? (c.username ?? '') : null,
      };
    case 's3':
      return {
        kind: 's3',
        endpoint: c.endpoint.replace(/\/+$/, ''),
        region: c.region,
        bucket: c.bucket,
        prefix: c.prefix.replace(/^\/+/, ''),
        accessKeyId: c.accessKeyId,
        pathStyle: c.pathStyle,
      };
    case 'sftp':
      return {
        kind: 'sftp',
        host: c.host,
        port: c.port,
        username: c.username,
        auth: c.auth,
        folder: c.folder.replace(/(.)\/+$/, '$1'),
        pattern: c.pattern,
        afterProcessing: c.afterProcessing,
        hostKey: c.hostKey || null,
      };
  }
}

/** The plaintext sealed for a connection: SFTP keeps a key's passphrase beside it. */
function secretText(c: SourceConnection): string | undefined {
  if (!c.secret) return undefined;
  if (c.kind === 'sftp') return JSON.stringify({ secret: c.secret, passphrase: c.passphrase || null });
  return c.secret;
}

/** Whether this connection needs a secret at all (a public CSV URL does not). */
export const needsSecret = (c: SourceConnection) => c.kind !== 'csv_url' || c.auth !== 'none';

export const SECRET_REQUIRED: Record<SourceConnection['kind'], string> = {
  csv_url: 'Enter the token or password.',
  s3: 'Enter the secret access key.',
  sftp: 'Enter the password or private key.',
};

const SECRET_AGAIN: Record<SourceConnection['kind'], string> = {
  csv_url: 'Enter the token or password again: the stored one is kept only for the same URL and sign-in.',
  s3: 'Enter the secret access key again: the stored one is kept only for the same endpoint and access key ID.',
  sftp: 'Enter the password or private key again: the stored one is kept only for the same server, port and user.',
};

/** A secret is needed; `again` when one is stored but may not serve this connection (another host or user). */
export const secretRequired = (c: SourceConnection, again = false) => {
  const message = (again ? SECRET_AGAIN : SECRET_REQUIRED)[c.kind];
  return new AppError('VALIDATION_FAILED', message, { secret: message });
};

/** The secret to store: a new one sealed, undefined to keep the stored one, null when no auth is used. */
export function sealedSecret(config: Config, c: SourceConnection, workspaceId: string, sourceId: string) {
  if (!needsSecret(c)) return null;
  const text = secretText(c);
  if (text) return sealToken(config.tokenKeys, text, secretAad(workspaceId, sourceId));
  return undefined;
}

export const openSecret = (config: Config, s: Pick<SourceRow, 'sealed' | 'workspaceId' | 'id'>) =>
  s.sealed ? openToken(config.tokenKeys, s.sealed, secretAad(s.workspaceId, s.id)) : null;

/** A request's secret in the stored form (as openSecret answers it), when the request carries one. */
export const requestSecret = (c: SourceConnection) => secretText(c) ?? null;

/** The connection as the API shows it: never the secret, only whether one is stored. */
export function presentConnection(s: Pick<SourceRow, 'connection' | 'sealed'>): SourceConnectionView {
  const hasSecret = s.sealed !== null;
  const c = s.connection;
  switch (c.kind) {
    case 'csv_url':
      return {
        kind: 'csv_url',
        url: c.url,
        auth: c.auth,
        headerName: c.headerName,
        username: c.username,
        hasSecret,
      };
    case 's3':
      return {
        kind: 's3',
        endpoint: c.endpoint,
        region: c.region,
        bucket: c.bucket,
        prefix: c.prefix,
        accessKeyId: c.accessKeyId,
        pathStyle: c.pathStyle,
        hasSecret,
      };
    case 'sftp':
      return {
        kind: 'sftp',
        host: c.host,
        port: c.port,
        username: c.username,
        auth: c.auth,
        folder: c.folder,
        pattern: c.pattern,
        afterProcessing: c.afterProcessing,
        hostKey: c.hostKey,
        hasSecret,
      };
  }
}

/** A connection the API refuses before anything is fetched; null when it looks right. */
export function connectionProblem(c: SourceConnection): AppError | null {
  const invalid = (message: string, field: string) =>
    new AppError('VALIDATION_FAILED', message, { [field]: message });
  const isUrl = (value: string) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  };
  if (c.kind === 'csv_url' && !isUrl(c.url)) return invalid('Enter a valid http:// or https:// URL.', 'url');
  if (c.kind === 's3' && c.endpoint && !isUrl(c.endpoint))
    return invalid('Enter the endpoint as an https:// URL, or leave it empty for AWS S3.', 'endpoint');
  if (c.kind === 'sftp' && /[\s/]/.test(c.host))
    return invalid('Enter the server name without spaces or slashes.', 'host');
  return null;
}

function authHeaders(c: StoredCsvUrl, secret: string | null): Record<string, string> {
  if (c.auth === 'header' && secret) return { [c.headerName ?? 'Authorization']: secret };
  if (c.auth === 'basic')
    return {
      authorization: `Basic ${Buffer.from(`${c.username ?? ''}:${secret ?? ''}`).toString('base64')}`,
    };
  return {};
}

/** SSRF rule: private and loopback addresses only when SOURCES_ALLOW_NETWORKS lists them; plain HTTP only
 * outside production. */
export const fetchOptions = (config: Config, headers: Record<string, string>): UrlFetchOptions => ({
  blockPrivate: true,
  isBlocked: sourceAddressRule(config.sourcesAllowNetworks),
  allowHttp: !config.isProduction,
  timeoutMs: FETCH_TIMEOUT_MS,
  maxRedirects: MAX_REDIRECTS,
  headers,
});

/** Opens a CSV URL's file as a byte stream. */
export function openUrlFile(config: Config, c: StoredCsvUrl, secret: string | null) {
  return fetchUrl(c.url, fetchOptions(config, authHeaders(c, secret)));
}
