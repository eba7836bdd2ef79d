import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { guardedLookup, UNREACHABLE } from '../sources/url-fetch.ts';

/** The receiver's answer kept in the delivery log: enough to see an error page's first lines. */
export const RESPONSE_KEEP_BYTES = 1024;

export interface PostOutcome {
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  durationMs: number;
  responseBody: string | null;
  /** Why no answer came, in the owner's words. */
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Sources' address rule (ssrf.ts with SOURCES_ALLOW_NETWORKS): checked on the address connected to. */
  isBlocked: (address: string) => boolean;
}

/**
 * POSTs one message. Redirects are not followed (a 3xx is a failed attempt): a receiver that moved says so by
 * failing, and a redirect cannot lead a signed message somewhere the address rule was not applied to. The
 * timeout covers connecting, the answer's headers and the first RESPONSE_KEEP_BYTES of its body; never throws.
 */
export async function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && opts.isBlocked(host))
    return { status: null, durationMs: 0, responseBody: null, error: UNREACHABLE };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  return new Promise<PostOutcome>((resolve) => {
    const failed = (err: unknown) =>
      resolve({
        status: null,
        durationMs: took(),
        responseBody: null,
        error: reason(err, signal, opts.timeoutMs),
      });
    const req = send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Backsignal-Webhooks/1',
        ...headers,
      },
      lookup: guardedLookup(true, opts.isBlocked),
      signal,
    });
    req.on('error', failed);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        res.destroy();
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8');
        resolve({ status: res.statusCode ?? 0, durationMs: took(), responseBody: text || null, error: null });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        kept += c.length;
        if (kept >= RESPONSE_KEEP_BYTES) done();
      });
      res.on('end', done);
      // An answer cut off after its status line still answered: its status counts.
      res.on('error', done);
    });
    req.end(body);
  });
}

function reason(err: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `No answer within ${Math.round(timeoutMs / 1000)} seconds.`;
  const code = (err as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host name could not be found (DNS).';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return `The server's certificate was refused (${code}).`;
  return UNREACHABLE;
}
