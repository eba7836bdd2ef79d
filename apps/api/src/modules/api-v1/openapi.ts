import { z } from 'zod';
import { API_KEY_SCOPES, V1_TUS_UPLOADS_PATH, V1Error, type ApiKeyScope } from '@backsignal/contracts';

/** What the document needs of a v1 route, as registered (the same zod schemas that validate it). */
export interface V1Route {
  method: string;
  url: string;
  scope: ApiKeyScope | null;
  upload: boolean;
  schema: {
    params?: z.ZodType;
    querystring?: z.ZodType;
    body?: z.ZodType;
    response?: Record<number, z.ZodType>;
  };
}

/** The v1 routes, collected as the v1 scope registers them; the document is built from this list. */
export const v1Registry = () => ({ routes: [] as V1Route[] });
export type V1Registry = ReturnType<typeof v1Registry>;

const json = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/** Each operation's title in the reference. */
const SUMMARIES: Record<string, string> = {
  'GET /api/v1/workspace': 'The key and its workspace',
  'GET /api/v1/uploads': 'List uploads',
  'POST /api/v1/uploads': 'Upload a CSV file',
  'GET /api/v1/uploads/:id': 'Read an upload',
  'DELETE /api/v1/uploads/:id': 'Delete an upload',
  'PUT /api/v1/uploads/:id/mapping': 'Map columns (template or columns) and file settings',
  'POST /api/v1/uploads/:id/jobs/:kind': 'Start validation or prepare',
  'GET /api/v1/uploads/:id/jobs/:kind': 'Read validation or prepare progress and result',
  'POST /api/v1/uploads/:id/send': 'Send a prepared upload',
  'GET /api/v1/uploads/:id/summary': 'Send progress and summary',
  'GET /api/v1/uploads/:id/failed-rows': 'Failed rows as CSV',
  'GET /api/v1/pixel-accounts': 'List pixel accounts',
  'POST /api/v1/pixel-accounts': 'Add a pixel account',
  'PUT /api/v1/pixel-accounts/:id/token': "Replace a pixel account's token",
  'GET /api/v1/templates': 'List mapping templates',
  'GET /api/v1/templates/:id': 'Read a mapping template',
  'GET /api/v1/sources': 'List sources',
  'GET /api/v1/sources/:id/runs': "A source's runs",
  'POST /api/v1/sources/:id/run': 'Run a source now',
  'POST /api/v1/sources/:id/pause': 'Pause a source',
  'POST /api/v1/sources/:id/resume': 'Resume a source',
  'POST /api/v1/events': 'Send events as JSON (up to 10,000 rows)',
  'POST /api/v1/uploads/tus': 'Start a resumable upload (tus 1.0)',
  'PATCH /api/v1/uploads/tus/:id': 'Append to a resumable upload (tus 1.0)',
  'DELETE /api/v1/uploads/tus/:id': 'Cancel a resumable upload (tus 1.0)',
  'GET /api/v1/uploads/tus/:id': 'A finished resumable upload, once read',
};

/** The tus protocol's own requests (decision 0120): headers and raw bytes, not JSON or multipart. */
const TUS_DESCRIPTION = `A resumable upload with the [tus 1.0](https://tus.io/protocols/resumable-upload) protocol (any tus
client): \`Tus-Resumable: 1.0.0\` on every request; POST with \`Upload-Length\` (at most the upload limit) and
\`Upload-Metadata\` (\`filename\`, base64) answers 201 with \`Location\`; HEAD there gives \`Upload-Offset\`; PATCH
appends \`application/offset+octet-stream\` bytes at that offset (5 MiB a request is advised). Once complete, GET
answers 202 while the file is read, then the upload as \`POST /api/v1/uploads\` answers it.`;

const ERRORS: Record<number, string> = {
  400: 'The request is invalid: `field` names what to fix.',
  401: 'No valid API key.',
  403: "The key's scope does not allow this call.",
  404: 'Not found in the key’s workspace.',
  409: 'The resource is not in a state for this call, or a call with this Idempotency-Key still runs.',
  422: 'The Idempotency-Key was used for another request.',
  429: 'Too many calls with this key: wait `Retry-After` seconds.',
};

const DESCRIPTION = `Backsignal's public API: upload a file of offline conversions or post events as JSON, map,
validate, prepare and send them to Meta's Conversions API with the same checks and reports as the app.

Authenticate with \`Authorization: Bearer <key>\`. An owner or admin creates keys in Settings → API keys; a key
acts in its workspace only, with its scope: **read** (read-only), **send** (upload and send), **admin** (also
pixel accounts and sources).

Every POST accepts an \`Idempotency-Key\` header: a retry with the same key within 24 hours answers the first
answer with \`Idempotent-Replayed: true\` and starts nothing again.

Lists are read by cursor: pass a page's \`nextCursor\` as \`cursor\` to read the next one.

## Errors

Every error answers \`{ code, message, field?, docs, requestId }\`: \`code\` is stable, \`message\` is the plain
sentence the app shows, \`field\` names the part of the request to fix. Codes: VALIDATION_FAILED (400),
UNAUTHENTICATED (401), FORBIDDEN (403), NOT_FOUND (404), CONFLICT and INVALID_STATE (409),
IDEMPOTENCY_KEY_REUSED (422), PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429, with \`Retry-After\`),
UPSTREAM_FAILED (502), INTERNAL (500).`;

/** The OpenAPI 3.1 document of the v1 routes, generated from their zod schemas. */
export function openApiDocument(registry: V1Registry, appUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry.routes) {
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', r.schema.params],
      ['query', r.schema.querystring],
    ] as const) {
      if (!schema) continue;
      const s = json(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, p] of Object.entries(s.properties ?? {}))
        parameters.push({
          name,
          in: where,
          required: where === 'path' || !!s.required?.includes(name),
          schema: p,
        });
    }
    if (r.method === 'POST')
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'A retry with the same key answers the first answer (kept 24 hours).',
        schema: { type: 'string', maxLength: 255 },
      });
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(r.schema.response ?? {}))
      responses[status] = {
        description: 'Success',
        content: { 'application/json': { schema: json(schema, 'output') } },
      };
    if (r.url.endsWith('/failed-rows'))
      responses['200'] = {
        description: "The latest send's failed rows, with the reason.",
        content: { 'text/csv': { schema: { type: 'string' } } },
      };
    for (const [status, description] of Object.entries(ERRORS))
      responses[status] = {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${path.replace(/\/api\/v1|[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: SUMMARIES[`${r.method} ${r.url}`] ?? `${r.method} ${path}`,
      tags: [path.split('/')[3]],
      description: r.scope ? `Needs a key of scope **${r.scope}** or above.` : undefined,
      parameters,
      responses,
    };
    if (r.url.startsWith(V1_TUS_UPLOADS_PATH)) {
      op.description = `${op.description ?? ''}\n\n${TUS_DESCRIPTION}`;
      const ok = {
        POST: ['201', 'Created: its address in `Location`.'],
        PATCH: ['204', 'Appended: `Upload-Offset`.'],
        DELETE: ['204', 'Cancelled.'],
      }[r.method];
      if (ok) responses[ok[0]!] = { description: ok[1] };
      if (r.method === 'PATCH')
        op.requestBody = {
          required: true,
          content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } },
        };
    } else if (r.schema.body)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: json(r.schema.body, 'input') } },
      };
    else if (r.upload)
      op.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: { type: 'string', contentMediaType: 'text/csv', description: 'The CSV file.' },
              },
              required: ['file'],
            },
          },
        },
      };
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Backsignal API', version: '1', description: DESCRIPTION },
    servers: [{ url: appUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (scopes: ${API_KEY_SCOPES.join(', ')}).`,
        },
      },
      schemas: { Error: json(V1Error, 'output') },
    },
  };
}
