import {
  maskedParams,
  sameUrlTarget,
  splitUrlSecrets,
  urlSecretMessage,
  type SourceConnection,
  type SourceConnectionView,
  type SourceKind,
} from '@backsignal/contracts';

/** The kinds the wizard offers, in order, with what the owner reads on the picker. */
export const KINDS: { kind: SourceKind; title: string; text: string }[] = [
  {
    kind: 'csv_url',
    title: 'CSV URL',
    text: "Any link that answers a CSV file: a Google Sheet published as CSV, a CRM's scheduled export, a storage signed URL.",
  },
  {
    kind: 'sftp',
    title: 'SFTP',
    text: 'A folder on an SFTP server your CRM or shop drops exports into. Each new file is sent once.',
  },
  {
    kind: 's3',
    title: 'S3 bucket',
    text: 'A bucket on AWS S3, Cloudflare R2, MinIO or another S3-compatible store. Each new file is sent once.',
  },
];

export const KIND_TEXT: Record<SourceKind, string> = { csv_url: 'CSV URL', sftp: 'SFTP', s3: 'S3 bucket' };

export function emptyConnection(kind: SourceKind): SourceConnection {
  switch (kind) {
    case 'csv_url':
      return { kind, url: '', auth: 'none' };
    case 's3':
      return { kind, endpoint: '', region: '', bucket: '', prefix: '', accessKeyId: '', pathStyle: false };
    case 'sftp':
      return {
        kind,
        host: '',
        port: 22,
        username: '',
        auth: 'password',
        folder: '',
        pattern: '*.csv',
        afterProcessing: 'remember',
        hostKey: null,
      };
  }
}

/** A saved source's connection as the form edits it: the secret empty (kept unless a new one is typed). */
export function fromView(v: SourceConnectionView): SourceConnection {
  switch (v.kind) {
    case 'csv_url':
      return {
        kind: 'csv_url',
        url: v.url,
        auth: v.auth,
        headerName: v.headerName ?? undefined,
        username: v.username ?? undefined,
      };
    case 's3': {
      const { hasSecret: _, ...rest } = v;
      return rest;
    }
    case 'sftp': {
      const { hasSecret: _, ...rest } = v;
      return rest;
    }
  }
}

/**
 * What is missing before a fetch can be tried, by field, in the product's words. `savedUrl`: the saved source's
 * URL as shown (masked), whose stored values a masked URL may use only for the same origin and path.
 */
export function missingFields(
  c: SourceConnection,
  secretStored: boolean,
  savedUrl: string | null = null,
): Record<string, string> {
  const out: Record<string, string> = {};
  const needSecret = !c.secret && !secretStored;
  if (c.kind === 'csv_url') {
    const masked = maskedParams(c.url);
    if (!c.url.trim()) out.url = 'Enter the URL of the CSV file.';
    else if (masked.length && !(savedUrl && sameUrlTarget(savedUrl, c.url)))
      out.url = urlSecretMessage(masked, !!savedUrl && splitUrlSecrets(savedUrl).params.length > 0);
    if (c.auth !== 'none' && needSecret)
      out.secret = c.auth === 'header' ? 'Enter the token.' : 'Enter the password.';
  } else if (c.kind === 's3') {
    if (!c.bucket.trim()) out.bucket = 'Enter the bucket name.';
    if (!c.accessKeyId.trim()) out.accessKeyId = 'Enter the access key ID.';
    if (needSecret) out.secret = 'Enter the secret access key.';
  } else {
    if (!c.host.trim()) out.host = 'Enter the server name.';
    if (!Number.isInteger(c.port) || c.port < 1 || c.port > 65535) out.port = 'Enter a port from 1 to 65535.';
    if (!c.username.trim()) out.username = 'Enter the user name.';
    if (!c.pattern.trim()) out.pattern = 'Enter a file name pattern, such as *.csv.';
    if (needSecret) out.secret = c.auth === 'key' ? 'Paste the private key.' : 'Enter the password.';
  }
  return out;
}
