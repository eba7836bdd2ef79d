import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

const NUL = '\u0000';
/**
 * Parsed data, not a Buffer or a stream: JSON gives plain objects, and the query-string parser objects whose
 * prototype is a bare null-prototype object.
 */
const isParsedObject = (v: object) => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
};

/**
 * The dotted path of the first string, value or key, that holds U+0000, or undefined. Walks with its own stack
 * because a 1 MB body can nest deeper than the call stack goes.
 */
export function findNul(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, at(path, i)]));
    } else if (v && typeof v === 'object' && isParsedObject(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes(NUL)) return at(path, key.replaceAll(NUL, ''));
        stack.push([item, at(path, key)]);
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL stores no U+0000 in text or jsonb and answers an insert of one with an error, which would reach
 * the client as a 500. JSON (`\u0000`), query strings and path parameters (`%00`) can all carry it, so every
 * request is checked once here, after parsing and before any schema or handler, instead of in each schema.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findNul(part);
      if (path === undefined) continue;
      throw new AppError(
        'VALIDATION_FAILED',
        'Text may not contain the NUL character (U+0000). Please remove it and try again.',
        { [path || 'body']: 'Contains the NUL character (U+0000).' },
      );
    }
  });
}
