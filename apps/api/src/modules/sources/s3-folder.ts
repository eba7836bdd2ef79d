import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import { pipeline, Readable, Transform } from 'node:stream';
import type { StoredS3 } from './sources.repo.ts';
import { guardedBody, type RemoteFolder, type RemoteItem } from './remote-folder.ts';
import { isBlockedAddress } from './ssrf.ts';
import { FetchFailure, guardedLookup, networkReason, UNREACHABLE } from './url-fetch.ts';

export interface S3Options {
  blockPrivate: boolean;
  allowHttp: boolean;
  timeoutMs: number;
  maxBytes: number;
  isBlocked?: (address: string) => boolean;
}

/** A bucket with more objects under the prefix than this is listed no further (a prefix keeps runs cheap). */
const MAX_LIST_PAGES = 50;
/** Keys asked for per page: S3's own maximum. A page answering more is refused. */
const KEYS_PER_PAGE = 1000;
/**
 * Bytes one listing page may take. A page of 1,000 keys is ~300 KB of XML with long keys; the SDK reads a page
 * whole before parsing it, so an endpoint answering a 1 GB page would otherwise take 1 GB or more of memory
 * (issue 30: 0.5 → 4.4 GB). The page's stream is cut here instead.
 */
export const MAX_LIST_PAGE_BYTES = 4 * 1024 * 1024;

export const LISTING_TOO_LARGE =
  'The bucket answered a listing larger than Backsignal reads (1,000 objects or 4 MB a page): check the endpoint, ' +
  'or use a prefix with fewer objects.';

/** Cuts a listing page's response body past `max` bytes, failing the listing with a plain message. */
function cappedBody(body: Readable, max: number): Readable {
  let seen = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) return done(new FetchFailure(LISTING_TOO_LARGE));
      done(null, chunk);
    },
  });
  pipeline(body, capped, () => {});
  return capped;
}

function endpointUrl(endpoint: string, opts: S3Options): string | undefined {
  if (!endpoint) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new FetchFailure(
      'The endpoint is not a valid URL (for example https://<account>.r2.cloudflarestorage.com).',
    );
  }
  if (url.protocol !== 'https:' && !(opts.allowHttp && url.protocol === 'http:'))
    throw new FetchFailure(
      opts.allowHttp
        ? 'The endpoint must start with https:// or http://.'
        : 'The endpoint must start with https://.',
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (opts.blockPrivate && isIP(host) && (opts.isBlocked ?? isBlockedAddress)(host))
    throw new FetchFailure(UNREACHABLE);
  return url.origin;
}

const listingTooSlow = (ms: number) =>
  new FetchFailure(
    `The bucket did not list its objects within ${Math.round(ms / 1000)} seconds: use a prefix with fewer objects.`,
  );

/** The owner's words for what the bucket answered. */
export function s3Reason(err: unknown, c: StoredS3): string {
  if (err instanceof FetchFailure) return err.message;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof FetchFailure) return cause.message;
  const name = (err as { name?: string }).name ?? '';
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  switch (name) {
    case 'InvalidAccessKeyId':
      return 'The bucket does not know this access key ID (InvalidAccessKeyId): check it.';
    case 'SignatureDoesNotMatch':
      return 'The bucket refused the secret access key (SignatureDoesNotMatch): check it.';
    case 'AccessDenied':
    case 'Forbidden':
      return `The bucket refused access (HTTP ${status ?? 403}): the key needs permission to list and read objects in "${c.bucket}".`;
    case 'NoSuchBucket':
      return `The bucket "${c.bucket}" does not exist at this endpoint.`;
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return `The bucket "${c.bucket}" is in another region: enter its region.`;
    case 'NoSuchKey':
      return 'The object was deleted before it could be read; the next run lists the bucket again.';
  }
  if (typeof status === 'number') return `The bucket answered HTTP ${status}${name ? ` (${name})` : ''}.`;
  if ((err as { code?: string }).code) return networkReason(err);
  return `The bucket could not be read (${(err as Error).message}).`;
}

/**
 * An S3-compatible bucket through the AWS SDK, with our own HTTP agents whose `lookup` applies the SSRF rule to
 * every address the endpoint resolves to (production), as URL fetches do. Checksums only when required: S3
 * stores that are not AWS (MinIO, R2, test servers) do not all answer the newer checksum headers.
 */
export async function s3Folder(c: StoredS3, secretAccessKey: string, opts: S3Options): Promise<RemoteFolder> {
  const endpoint = endpointUrl(c.endpoint, opts);
  // Loaded on first use: the AWS SDK costs ~6 MB of resident memory that a server without S3 sources never needs.
  const [{ GetObjectCommand, ListObjectsV2Command, S3Client }, { NodeHttpHandler }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@smithy/node-http-handler'),
  ]);
  const lookup = guardedLookup(opts.blockPrivate, opts.isBlocked ?? isBlockedAddress);
  const httpAgent = new HttpAgent({ lookup, keepAlive: false });
  const httpsAgent = new HttpsAgent({ lookup, keepAlive: false });
  const client = new S3Client({
    region: c.region || (endpoint ? 'auto' : 'us-east-1'),
    endpoint,
    forcePathStyle: c.pathStyle,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: new NodeHttpHandler({
      httpAgent,
      httpsAgent,
      connectionTimeout: 15_000,
      requestTimeout: opts.timeoutMs,
    }),
  });
  const fail = (err: unknown): never => {
    throw new FetchFailure(s3Reason(err, c));
  };

  return {
    async list() {
      const items: RemoteItem[] = [];
      let token: string | undefined;
      // One deadline for the whole listing, not one per page: 50 slow pages would hold a run for 50 minutes.
      const deadline = AbortSignal.timeout(opts.timeoutMs);
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const command = new ListObjectsV2Command({
          Bucket: c.bucket,
          Prefix: c.prefix || undefined,
          ContinuationToken: token,
          MaxKeys: KEYS_PER_PAGE,
        });
        // Between the HTTP answer and the SDK's parser, which reads the body whole: the body is capped first.
        command.middlewareStack.add(
          (next) => async (args) => {
            const out = await next(args);
            const response = out.response as { body?: unknown };
            if (response.body instanceof Readable)
              response.body = cappedBody(response.body, MAX_LIST_PAGE_BYTES);
            return out;
          },
          { step: 'deserialize', priority: 'low', name: 'listingPageCap' },
        );
        const res = await client
          .send(command, { abortSignal: deadline })
          .catch((err: unknown) => fail(deadline.aborted ? listingTooSlow(opts.timeoutMs) : err));
        if ((res.Contents?.length ?? 0) > KEYS_PER_PAGE) fail(new FetchFailure(LISTING_TOO_LARGE));
        for (const o of res.Contents ?? []) {
          // "Folder" markers some consoles create are not files.
          if (!o.Key || o.Key.endsWith('/')) continue;
          items.push({
            key: JSON.stringify(['s3', o.Key, o.ETag ?? '']),
            name: o.Key,
            size: o.Size ?? 0,
            modifiedAt: o.LastModified ?? null,
          });
        }
        if (!res.IsTruncated || !res.NextContinuationToken) break;
        token = res.NextContinuationToken;
      }
      return items;
    },
    async read(item) {
      const controller = new AbortController();
      const res = await client
        .send(new GetObjectCommand({ Bucket: c.bucket, Key: item.name }), { abortSignal: controller.signal })
        .catch(fail);
      const body = res.Body as AsyncIterable<Uint8Array> & { destroy?: () => void };
      return guardedBody(body, {
        maxBytes: opts.maxBytes,
        timeoutMs: opts.timeoutMs,
        abort: () => controller.abort(),
        cleanup: () => body.destroy?.(),
      });
    },
    async close() {
      client.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
