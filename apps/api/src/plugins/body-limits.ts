import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { fileTooLargeMessage } from '../lib/upload-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a multipart file upload (up to MAX_UPLOAD_MB) instead of a small JSON body. */
    uploadBody?: boolean;
  }
}

/** JSON (and any other non-upload) body limit; Fastify's bodyLimit is set to the same. */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Room for the multipart boundary lines and part headers around a file of the maximum size. */
const MULTIPART_SLACK = 64 * 1024;

export const requestTooLargeMessage = (bytes: number) =>
  `The request is too large. Max size is ${Number((bytes / 1024 / 1024).toFixed(1))}MB.`;

const declaredLength = (request: FastifyRequest) => {
  const v = request.headers['content-length'];
  return v === undefined ? null : Number(v);
};

/**
 * Issue 21 finding 3. A refusal sent before the body was read must not strand the rest of the body on a
 * kept-alive connection, where the next request would queue behind it:
 * - a declared Content-Length over the route's limit is refused at once (413), nothing read, and the
 *   connection closed;
 * - any other error answered while body bytes are unread: a declared length (at most the limit) is drained so
 *   the connection stays usable; a chunked body of unknown size gets the connection closed.
 */
export function registerBodyLimits(app: FastifyInstance, maxUploadBytes: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const length = declaredLength(request);
    if (length === null) return;
    const upload = request.routeOptions.config?.uploadBody === true;
    const limit = upload ? maxUploadBytes + MULTIPART_SLACK : JSON_BODY_LIMIT;
    if (length > limit) {
      reply.header('connection', 'close');
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        upload ? fileTooLargeMessage(maxUploadBytes) : requestTooLargeMessage(JSON_BODY_LIMIT),
      );
    }
  });

  app.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (reply.statusCode < 400 || raw.readableEnded || raw.complete) return;
    const length = declaredLength(request);
    if (length === null) {
      if (request.headers['transfer-encoding']) reply.header('connection', 'close');
      return;
    }
    if (reply.getHeader('connection') === 'close') return;
    // Whatever stopped reading (the multipart parser after a refusal) lets go; the rest is discarded.
    raw.unpipe();
    raw.resume();
  });
}
