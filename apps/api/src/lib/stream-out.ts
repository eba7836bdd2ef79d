import { PassThrough } from 'node:stream';
import { once } from 'node:events';

/**
 * A response body fed by an async producer with backpressure: `write` waits while the client is slow. The
 * producer runs after the caller has handed the stream to reply.send; a failure ends the stream with an error.
 */
export function streamedBody(
  produce: (write: (s: string) => Promise<void>) => Promise<void>,
  onError: (err: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const write = async (s: string) => {
    if (out.destroyed) throw new Error('client went away');
    if (!out.write(s)) await once(out, 'drain');
  };
  setImmediate(() => {
    produce(write).then(
      () => out.end(),
      (err) => {
        onError(err);
        out.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
  return out;
}
