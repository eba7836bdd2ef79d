import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { API_DOCS_PATH, type ErrorBody } from '@backsignal/contracts';
import { AppError, TOO_MANY_REQUESTS } from '../errors/app-error.ts';
import { fileTooLargeMessage } from '../lib/upload-limit.ts';
import { JSON_BODY_LIMIT, requestTooLargeMessage } from './body-limits.ts';
import { isApiV1, v1Error } from '../errors/v1-error.ts';

/**
 * The one place errors become HTTP. Known errors keep their code and message; anything else is logged with
 * the request id and answered as a generic 500 (no stack, SQL or library names).
 */
export function registerErrorHandler(
  app: FastifyInstance,
  /** Answers unknown GET paths outside the API (the SPA's history fallback); returns false to decline. */
  webFallback?: (request: FastifyRequest, reply: FastifyReply) => boolean,
  /** The upload limit, for the spec §5 text on any 413 the routes did not answer themselves. */
  maxUploadBytes = 10 * 1024 * 1024,
  /** The API reference page, linked from every /api/v1 error. */
  apiDocsUrl = API_DOCS_PATH,
): void {
  const sendError = (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) =>
    isApiV1(request)
      ? reply.status(status).send(v1Error(body, request.id, apiDocsUrl))
      : reply.status(status).send({ ...body, requestId: request.id });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorBody) => sendError(request, reply, status, body);

    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return send(err.status, { code: err.code, message: err.message, fields: err.fields });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
        fields[path] ??= issue.message ?? 'Invalid value.';
      }
      const first = err.validation[0]?.message ?? 'Invalid request.';
      return send(400, { code: 'VALIDATION_FAILED', message: first, fields });
    }
    const status = err.statusCode ?? 500;
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return send(413, { code: 'PAYLOAD_TOO_LARGE', message: fileTooLargeMessage(maxUploadBytes) });
    }
    if (status === 413) {
      // Fastify's own body limit: JSON and other small bodies, never a file.
      return send(413, { code: 'PAYLOAD_TOO_LARGE', message: requestTooLargeMessage(JSON_BODY_LIMIT) });
    }
    if (status === 415)
      return send(415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type.' });
    if (status === 429) return send(429, { code: 'RATE_LIMITED', message: TOO_MANY_REQUESTS });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, empty body): a plain message without internals.
      return send(400, { code: 'VALIDATION_FAILED', message: 'The request could not be read.' });
    }
    request.log.error({ err }, 'unhandled error');
    return send(500, { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (webFallback?.(request, reply)) return;
    sendError(request, reply, 404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}
