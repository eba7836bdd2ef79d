import type { Config } from '../../config/env.ts';
import { AppError } from '../../errors/app-error.ts';
import { openToken, sealToken } from '../pixels/token-crypto.ts';
import {
  fillUrlSecrets,
  maskedParams,
  sameSecretTarget,
  sameUrlTarget,
  splitUrlSecrets,
  urlSecretMessage,
  type SourceConnection,
  type SourceConnectionView,
  type UrlSecret,
} from '@backsignal/contracts';
import type { SourceRow, StoredConnection, StoredCsvUrl } from './sources.repo.ts';
import { sourceAddressRule } from './ssrf.ts';
import { FetchFailure, fetchUrl, type UrlFetchOptions } from './url-fetch.ts';

/** Each fetch may take this long, body included. */
export const FETCH_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 3;

/** Additional data of a secret sealed before decision 0102: the header token, password or key alone. */
export const secretAad = (workspaceId: string, sourceId: string) => `source:${workspaceId}:${sourceId}`;
/**
 * Additional data of the envelope (decision 0102): it tells the two formats apart with certainty, since a
 * ciphertext opens only with the additional data it was sealed with, whatever an old token looked like.
 */
const envelopeAad = (workspaceId: string, sourceId: string) => `source-secrets:${workspaceId}:${sourceId}`;

/**
 * What is stored of a connection: everything but the secrets. A CSV URL keeps its secret query parameters'
 * names with their values masked (decision 0102).
 */
export function storedConnection(c: SourceConnection): StoredConnection {
  switch (c.kind) {
    case 'csv_url':
      return {
        kind: 'csv_url',
        url: splitUrlSecrets(c.url.trim()).url,
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

/** The plaintext of a connection's own secret: SFTP keeps a key's passphrase beside it. */
function secretText(c: SourceConnection): string | undefined {
  if (!c.secret) return undefined;
  if (c.kind === 'sftp') return JSON.stringify({ secret: c.secret, passphrase: c.passphrase || null });
  return c.secret;
}

/** Whether this connection needs a secret at all (a public CSV URL does not). */
export const needsSecret = (c: Pick<SourceConnection, 'kind'> & { auth?: string }) =>
  c.kind !== 'csv_url' || c.auth !== 'none';

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

/** The URL shows masked values with none stored for them; `again` when stored ones may not go to this URL. */
export const urlSecretRequired = (names: string[], again = false) => {
  const message = urlSecretMessage(names, again);
  return new AppError('VALIDATION_FAILED', message, { url: message });
};

/**
 * What a source's sealed secret holds: the connection's own secret (header token, password, SFTP key with its
 * passphrase, S3 secret key) and the values of the CSV URL's secret query parameters, in URL order.
 */
export interface SourceSecrets {
  secret: string | null;
  query: UrlSecret[];
}
const NO_SECRETS: SourceSecrets = { secret: null, query: [] };

/** The envelope sealed for a source (decision 0102); null when there is nothing to keep. */
export function sealSecrets(config: Config, s: SourceSecrets, workspaceId: string, sourceId: string) {
  if (!s.secret && !s.query.length) return null;
  const text = JSON.stringify({ secret: s.secret, query: s.query.map((q) => [q.name, q.value]) });
  return sealToken(config.tokenKeys, text, envelopeAad(workspaceId, sourceId));
}

/**
 * Opens a source's secrets. A secret sealed before decision 0102 is the connection's own secret alone, under
 * the old additional data: it opens as it always did, with no query values (such a row still has them plain in
 * its URL until it is sealed again).
 */
export function openSecrets(
  config: Config,
  s: Pick<SourceRow, 'sealed' | 'workspaceId' | 'id'>,
): SourceSecrets {
  if (!s.sealed) return NO_SECRETS;
  let text: string;
  try {
    text = openToken(config.tokenKeys, s.sealed, envelopeAad(s.workspaceId, s.id));
  } catch {
    return { secret: openToken(config.tokenKeys, s.sealed, secretAad(s.workspaceId, s.id)), query: [] };
  }
  const e = JSON.parse(text) as { secret: string | null; query: [string, string][] };
  return { secret: e.secret, query: e.query.map(([name, value]) => ({ name, value })) };
}

/** The stored CSV URL with every value it can have: masked ones from the sealed secret, plain ones as stored. */
export function realUrl(url: string, secrets: SourceSecrets) {
  return fillUrlSecrets(url, secrets.query);
}

/**
 * The connection to store or fetch and its secrets: those the request carries, else the saved source's, but only
 * towards the same place (sameSecretTarget for its own secret, the same URL origin and path for query values).
 * Throws the plain "enter it (again)" messages. `save`: a missing secret is refused; a test fetch tries without.
 */
export function resolveConnection(
  config: Config,
  c: SourceConnection,
  saved: SourceRow | null,
  purpose: 'save' | 'fetch',
): { connection: StoredConnection; secrets: SourceSecrets } {
  const own = saved?.kind === c.kind ? saved : null;
  let opened: SourceSecrets | undefined;
  const stored = () => (opened ??= own ? openSecrets(config, own) : NO_SECRETS);

  let secret = secretText(c) ?? null;
  if (!needsSecret(c)) secret = null;
  else if (!secret) {
    const kept = stored().secret;
    if (kept && sameSecretTarget(own!.connection, c)) secret = kept;
    else if (kept || purpose === 'save') throw secretRequired(c, !!kept);
  }

  let query: UrlSecret[] = [];
  if (c.kind === 'csv_url') {
    const url = c.url.trim();
    const savedUrl = own?.connection.kind === 'csv_url' ? own.connection.url : null;
    const sameFile = !!savedUrl && sameUrlTarget(savedUrl, url);
    // Masked values stand for the saved URL's: every value it has, sealed or (before decision 0102) still plain.
    const pool = sameFile && maskedParams(url).length ? urlValues(realUrl(savedUrl, stored()).url) : [];
    const filled = fillUrlSecrets(url, pool);
    if (filled.missing.length)
      throw urlSecretRequired(
        filled.missing,
        !!savedUrl && !sameFile && splitUrlSecrets(savedUrl).params.length > 0,
      );
    query = urlValues(filled.url);
  }
  return { connection: storedConnection(c), secrets: { secret, query } };
}

/** The values of a URL's secret parameters that are not masked, in order. */
const urlValues = (url: string) =>
  splitUrlSecrets(url).params.filter((p): p is UrlSecret => p.value !== null);

/** The connection as the API shows it: never the secret, only whether one is stored. */
export function presentConnection(s: Pick<SourceRow, 'connection' | 'sealed'>): SourceConnectionView {
  // The envelope may hold only a URL's query values: "a secret is stored" speaks of the token or password.
  const hasSecret = s.sealed !== null && needsSecret(s.connection);
  const c = s.connection;
  switch (c.kind) {
    case 'csv_url':
      return {
        kind: 'csv_url',
        // Masked again: a row stored before decision 0102 may still hold the values in plain text.
        url: splitUrlSecrets(c.url).url,
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

/** Opens a CSV URL's file as a byte stream, at the URL with its secret values put back. */
export function openUrlFile(config: Config, c: StoredCsvUrl, secrets: SourceSecrets) {
  const { url, missing } = realUrl(c.url, secrets);
  if (missing.length)
    throw new FetchFailure(
      `The URL has no stored value for ${missing.join(', ')}: edit the source and enter the URL again.`,
    );
  return fetchUrl(url, fetchOptions(config, authHeaders(c, secrets.secret)));
}
