import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

type Flaw = 'nul' | 'surrogate';

const NUL = '\u0000';
// Code units, not code points (no u flag): half of a surrogate pair with no other half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const flawOf = (s: string): Flaw | undefined =>
  s.includes(NUL) ? 'nul' : LONE_SURROGATE.test(s) ? 'surrogate' : undefined;
const readable = (key: string) => key.replaceAll(NUL, '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '');

/**
 * Parsed data, not a Buffer or a stream: JSON gives plain objects, and the query-string parser objects whose
 * prototype is a bare null-prototype object.
 */
const isParsedObject = (v: object) => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
};

/**
 * The dotted path of the first string, value or key, that PostgreSQL cannot store, and why. Walks with its own
 * stack because a 1 MB body can nest deeper than the call stack goes.
 */
export function findUnstorableText(value: unknown): { path: string; flaw: Flaw } | undefined {
  const stack: [unknown, string][] = [[value, '']];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const flaw = flawOf(v);
      if (flaw) return { path, flaw };
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, at(path, i)]));
    } else if (v && typeof v === 'object' && isParsedObject(v)) {
      for (const [key, item] of Object.entries(v)) {
        const flaw = flawOf(key);
        if (flaw) return { path: at(path, readable(key)), flaw };
        stack.push([item, at(path, key)]);
      }
    }
  }
  return undefined;
}

const ANSWERS: Record<Flaw, { message: string; field: string }> = {
  nul: {
    message: 'Text may not contain the NUL character (U+0000). Please remove it and try again.',
    field: 'Contains the NUL character (U+0000).',
  },
  surrogate: {
    message: 'Text must be valid Unicode: it has half of a character pair. Please retype it and try again.',
    field: 'Contains half of a Unicode character pair.',
  },
};

/**
 * PostgreSQL stores neither U+0000 nor unpaired surrogates (invalid UTF-8) in text or jsonb, and answers an
 * insert of one with an error, which would reach the client as a 500. JSON (`\u0000`, `\ud800`), query
 * strings and path parameters (`%00`) can all carry them, so every request is checked once here, after
 * parsing and before any schema or handler, instead of in each schema.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const found = findUnstorableText(part);
      if (!found) continue;
      const { message, field } = ANSWERS[found.flaw];
      throw new AppError('VALIDATION_FAILED', message, { [found.path || 'body']: field });
    }
  });
}
