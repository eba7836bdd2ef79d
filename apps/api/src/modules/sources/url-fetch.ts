import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './ssrf.ts';

/** A fetch that failed for a reason the owner can act on; the message is shown as is. */
export class FetchFailure extends Error {}

export interface UrlFetchOptions {
  /** Refuse private, loopback and link-local addresses (every DNS answer, on every hop): always, for sources. */
  blockPrivate: boolean;
  /** Outside production, plain http:// is accepted too. */
  allowHttp: boolean;
  timeoutMs: number;
  maxRedirects: number;
  headers: Record<string, string>;
  /** Which addresses blockPrivate refuses (isBlockedAddress less SOURCES_ALLOW_NETWORKS: sourceAddressRule). */
  isBlocked?: (address: string) => boolean;
}

/**
 * One answer for a target refused by the address rule, a closed or filtered port, a reset, and a server that is
 * not what the source expects: distinct messages would let a source map which hosts and ports answer (issue 30).
 */
export const UNREACHABLE =
  'The server could not be reached, or did not answer as expected: check the address and port, and that the ' +
  'server is online. A server on a private network must first be allowed by your administrator ' +
  '(SOURCES_ALLOW_NETWORKS).';

/**
 * Resolves every address of the host and refuses the connection when any is blocked; the address checked is
 * the one connected to, so a DNS answer cannot change between the check and the connection. Used as the
 * `lookup` of URL fetches, of the S3 client's agents and of SFTP sockets.
 */
export function guardedLookup(
  blockPrivate: boolean,
  isBlocked: (a: string) => boolean = isBlockedAddress,
  refusal = UNREACHABLE,
): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      if (blockPrivate && addresses.some((a) => isBlocked(a.address)))
        return callback(new FetchFailure(refusal), '', 4);
      if ((options as { all?: boolean }).all)
        return (callback as never as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'EADDRNOTAVAIL',
]);

/** The owner's words for a network error (DNS, unreachable, TLS). */
export function networkReason(err: unknown): string {
  if (err instanceof FetchFailure) return err.message;
  const code = (err as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host name could not be found (DNS).';
  if (code?.startsWith('HPE_') || UNREACHABLE_CODES.has(code ?? '')) return UNREACHABLE;
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return `The server's certificate was refused (${code}).`;
  return `The file could not be fetched (${code ?? (err as Error).message}).`;
}

function get(url: URL, opts: UrlFetchOptions, headers: Record<string, string>, signal: AbortSignal) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal IPs never go through DNS: check them here.
  const isBlocked = opts.isBlocked ?? isBlockedAddress;
  if (opts.blockPrivate && isIP(host) && isBlocked(host)) throw new FetchFailure(UNREACHABLE);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      headers: { 'user-agent': 'Backsignal-Sources/1', accept: 'text/csv, */*', ...headers },
      lookup: guardedLookup(opts.blockPrivate, isBlocked),
      signal,
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/**
 * GETs a CSV over HTTP(S) following at most `maxRedirects` redirects, each hop checked like the first.
 * Credentials go only to the URL's own origin. Answers the body as a byte stream; the caller limits its size.
 * The timeout covers the whole transfer, body included.
 */
export async function fetchUrl(
  rawUrl: string,
  opts: UrlFetchOptions,
): Promise<{ body: AsyncIterable<Uint8Array>; finalUrl: string }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new FetchFailure('This is not a valid URL.');
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  timer.unref();
  const origin = url.origin;
  try {
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:' && !(opts.allowHttp && url.protocol === 'http:'))
        throw new FetchFailure(
          opts.allowHttp
            ? 'Only http:// and https:// URLs can be fetched.'
            : 'Only https:// URLs can be fetched.',
        );
      if (url.username || url.password)
        throw new FetchFailure(
          'Put the user name and password in the authentication fields, not in the URL.',
        );
      const res = await get(url, opts, url.origin === origin ? opts.headers : {}, controller.signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= opts.maxRedirects)
          throw new FetchFailure(`The URL redirected more than ${opts.maxRedirects} times.`);
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchFailure(
          status === 401 || status === 403
            ? `The server refused access (HTTP ${status}): check the token or password.`
            : `The server answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}.`,
        );
      }
      const finalUrl = url.toString();
      async function* body() {
        try {
          for await (const chunk of res) yield chunk as Uint8Array;
        } catch (err) {
          throw controller.signal.aborted
            ? timeoutFailure(opts.timeoutMs)
            : new FetchFailure(networkReason(err));
        } finally {
          clearTimeout(timer);
          res.destroy();
        }
      }
      return { body: body(), finalUrl };
    }
  } catch (err) {
    clearTimeout(timer);
    // No answer before the time ran out: a filtered port looks like this, so it reads as any unreachable one.
    if (controller.signal.aborted) throw new FetchFailure(UNREACHABLE);
    throw new FetchFailure(networkReason(err));
  }
}

const timeoutFailure = (ms: number) =>
  new FetchFailure(`The server did not send the whole file within ${Math.round(ms / 1000)} seconds.`);
