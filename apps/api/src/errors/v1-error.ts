import type { FastifyRequest } from 'fastify';
import type { ErrorBody, V1Error } from '@backsignal/contracts';

/** A call of the public API: its errors take the v1 shape. */
export const isApiV1 = (request: FastifyRequest) =>
  request.routeOptions.config?.apiKey === true || request.url.startsWith('/api/v1/');

/**
 * The v1 error shape (decision 0113): the same code and plain message the screens show, the one field it is about
 * (the first, when the request had several wrong), and the reference page's section on errors.
 */
export function v1Error(body: ErrorBody, requestId: string, docsUrl: string): V1Error {
  const field = body.fields ? Object.keys(body.fields)[0] : undefined;
  return {
    code: body.code,
    message: body.message,
    ...(field !== undefined ? { field } : {}),
    docs: `${docsUrl}#description/errors`,
    requestId,
  };
}
