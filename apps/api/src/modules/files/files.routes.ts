import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ListQuery,
  RefundChoiceUpdate,
  StatusUpdate,
  type HeadersResponse,
  type PrepareResponse,
  type UploadList,
  type UploadResponse,
  type ValidationResponse,
} from '@backsignal/contracts';
import { DEFAULT_FILE_SETTINGS } from '@backsignal/core';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError } from '../../errors/app-error.ts';
import { csvLine } from '../../lib/csv-out.ts';
import { perUserLimit } from '../../lib/per-user-limit.ts';
import { streamedBody } from '../../lib/stream-out.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { filesRepo } from './files.repo.ts';
import { deliveryOutcomes } from '../delivery/delivery.service.ts';
import { presentUpload } from './files.presenter.ts';
import * as files from './files.service.ts';
import { logActivity } from '../activity/activity.http.ts';
import { tooLarge } from './ingest.ts';
import { runPipeline } from './pipeline.ts';
import { jobDeps, jobOutcome, startJob } from './upload-jobs.service.ts';

const Id = z.object({ id: z.string().max(64) });
/** Spec §5's accepted types. */
const CSV_TYPES = new Set(['text/csv', 'application/vnd.ms-excel']);

/**
 * Which uploads count as CSV. 'upload' (spec §5): a CSV type, or any other type when the name ends in .csv,
 * because browsers and OSes send odd types for .csv files (text/plain, application/octet-stream, empty,
 * application/x-csv...). 'fixed' (spec §5 corrected file): the name must end in .csv, whatever the type.
 * Either way the bytes are then read as CSV, and binaries, spreadsheets and empty files are refused by content.
 */
export function acceptsAsCsv(kind: 'upload' | 'fixed', fileName: string, mimeType: string): boolean {
  const csvName = fileName.toLowerCase().endsWith('.csv');
  return kind === 'fixed' ? csvName : csvName || CSV_TYPES.has(mimeType.split(';')[0]!.trim().toLowerCase());
}

/** A client's file name as kept: no path separators, at most 200 characters. */
export const storedFileName = (name: string) => name.replace(/[\\/]/g, '_').slice(0, 200) || 'upload.csv';

/**
 * A body the multipart parser gave up on (garbage, a truncated part, no boundary) is the client's fault: a
 * plain 400, whatever the parser's own words were.
 */
function unreadable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError(
    'VALIDATION_FAILED',
    'The upload could not be read. Please choose the file again and retry.',
  );
}

/** The single 'file' part of a multipart upload as a byte stream, with the size limit as our own message (also /api/v1). */
export async function filePart(
  request: FastifyRequest,
  maxBytes: number,
  kind: 'upload' | 'fixed',
  badName: string,
) {
  const encoding = request.headers['content-encoding'];
  if (encoding && encoding.trim().toLowerCase() !== 'identity') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Compressed uploads are not supported. Please upload the CSV file itself.',
    );
  }
  if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', 'No file selected.');
  let part;
  try {
    part = await request.file({ limits: { files: 1, fileSize: maxBytes + 1, fields: 5 } });
  } catch (err) {
    throw unreadable(err);
  }
  if (!part || part.fieldname !== 'file') throw new AppError('VALIDATION_FAILED', 'No file selected.');
  const name = storedFileName(part.filename);
  if (!acceptsAsCsv(kind, part.filename, part.mimetype ?? '')) {
    part.file.resume();
    throw new AppError('VALIDATION_FAILED', badName);
  }
  async function* bytes() {
    try {
      for await (const chunk of part!.file) yield chunk as Uint8Array;
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
      throw unreadable(err);
    }
    if (part!.file.truncated) throw tooLarge(maxBytes);
  }
  return { name, bytes: bytes() };
}

export const fileRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    await instance.register(multipart);
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config } = deps;
    const need = roleGuard(deps.db);
    app.addHook('preValidation', need('viewer'));
    const uid = (r: FastifyRequest) => currentWorkspace(r).id;
    const jd = jobDeps(deps, instance.log);
    const uploadLimits = () => ({ maxBytes: config.maxUploadBytes, quotas: config.quotas, now: deps.now() });
    // Sweep uploads whose bytes never finished arriving (a crashed or cancelled upload).
    await filesRepo.sweepIncomplete(db, new Date(Date.now() - 60 * 60 * 1000)).catch(() => {});

    app.get('/api/uploads', { schema: { querystring: ListQuery } }, async (request): Promise<UploadList> => {
      const { rows, total } = await filesRepo.listForUser(
        db,
        uid(request),
        request.query.limit,
        request.query.offset,
      );
      // What tells two files of the same name apart: time, rows, the pixel sent to. A source's files are not in
      // this list: they are listed under their source (decision 0100).
      const outcomes = await deliveryOutcomes(
        db,
        uid(request),
        rows.map((r) => r.id),
      );
      return {
        uploads: rows.map((r) => ({
          ...presentUpload(r),
          delivery: outcomes.get(r.id) ?? null,
        })),
        total,
      };
    });

    app.post(
      '/api/upload',
      { preValidation: need('member'), config: { ...perUserLimit(30), uploadBody: true } },
      async (request, reply) => {
        const { name, bytes } = await filePart(
          request,
          config.maxUploadBytes,
          'upload',
          'Invalid file type. Please upload a CSV file.',
        );
        const { file, ingest } = await files.createUpload(db, uid(request), name, bytes, uploadLimits());
        request.log.info({ uploadId: file.id, bytes: file.sizeBytes, rows: file.rowCount }, 'file uploaded');
        await logActivity(db, request, 'file.uploaded', file.fileName, { rows: file.rowCount });
        return reply.status(201).send({
          file: presentUpload(file),
          headers: ingest.headers,
          issues: ingest.issues,
          message: `Uploaded: ${file.fileName}`,
        } satisfies UploadResponse);
      },
    );

    app.get('/api/uploads/:id', { schema: { params: Id } }, async (request) =>
      presentUpload(await files.ownFile(db, uid(request), request.params.id)),
    );

    app.delete(
      '/api/uploads/:id',
      { preValidation: need('member'), schema: { params: Id } },
      async (request) => {
        const f = await files.deleteOwnFile(db, uid(request), request.params.id);
        await logActivity(db, request, 'file.deleted', f.fileName);
        return { message: 'File deleted!' };
      },
    );

    app.get(
      '/api/uploads/:id/headers',
      { preValidation: need('member'), schema: { params: Id } },
      async (request): Promise<HeadersResponse> => {
        const f = await files.ownFile(db, uid(request), request.params.id);
        return {
          headers: f.headers,
          mappings: f.mappings,
          hardcodedValues: f.hardcodedValues,
          settings: f.settings ?? DEFAULT_FILE_SETTINGS,
          samples: f.samples,
          saved: f.mappingSaved,
          autoMapped: f.autoMapped,
        };
      },
    );

    app.patch(
      '/api/uploads/:id/status',
      { preValidation: need('member'), schema: { params: Id, body: StatusUpdate } },
      async (request) => {
        const f = await files.updateStatus(db, uid(request), request.params.id, request.body);
        const kind = { uploaded: null, mapped: 'mapping.saved', validated: 'file.validated' } as const;
        const k = kind[request.body.status];
        if (k) await logActivity(db, request, k, f.fileName);
        return { ...presentUpload(f), message: `File marked as ${f.status}` };
      },
    );

    // The file's refund rows (negative Purchase values): skip or send, for the file as it is now (decision 0098).
    app.put(
      '/api/uploads/:id/refund-rows',
      { preValidation: need('member'), schema: { params: Id, body: RefundChoiceUpdate } },
      async (request) => files.chooseRefunds(db, uid(request), request.params.id, request.body.choice),
    );

    app.post(
      '/api/uploads/:id/fixed',
      {
        preValidation: need('member'),
        schema: { params: Id },
        config: { ...perUserLimit(30), uploadBody: true },
      },
      async (request): Promise<UploadResponse> => {
        const { name, bytes } = await filePart(
          request,
          config.maxUploadBytes,
          'fixed',
          'Please upload a valid .csv file.',
        );
        const { file, ingest } = await files.replaceUpload(
          db,
          uid(request),
          request.params.id,
          name,
          bytes,
          uploadLimits(),
        );
        await logActivity(db, request, 'file.replaced', file.fileName, { rows: file.rowCount });
        return {
          file: presentUpload(file),
          headers: ingest.headers,
          issues: ingest.issues,
          message: 'File uploaded. Revalidating...',
        };
      },
    );

    // validate, prepare and the three downloads below write or spend quota: kept as the spec's GETs, but with
    // `xsrf: true` they need the header, so a cross-site link or <img> cannot set them off (issue 21).
    app.get(
      '/api/uploads/:id/validate',
      { preValidation: need('member'), schema: { params: Id }, config: { ...perUserLimit(60), xsrf: true } },
      async (request): Promise<ValidationResponse> => {
        // The same background job the web app starts and polls, waited for (docs/decisions/0091).
        const { job, upload, started } = await startJob(jd, uid(request), request.params.id, 'validate');
        if (started) await logActivity(db, request, 'validation.started', upload.fileName);
        return (await jobOutcome(jd, job.id)) as ValidationResponse;
      },
    );

    app.get(
      '/api/uploads/:id/validate/report.csv',
      { preValidation: need('member'), schema: { params: Id }, config: { ...perUserLimit(60), xsrf: true } },
      async (request, reply) => {
        const f = await files.ownFile(db, uid(request), request.params.id);
        files.notSubmitted(f);
        await files.takePass(db, config.quotas, uid(request), f, 'validate', deps.now());
        const body = streamedBody(
          async (write) => {
            // 'reason' is the code of a dropped value (kind 'dropped'), so a spreadsheet can filter by it.
            await write(csvLine(['row', 'field', 'kind', 'message', 'original', 'corrected', 'reason']));
            const summary = await runPipeline(
              db,
              f,
              { mode: 'report', now: deps.now(), previewLimit: 0, lane: 'requests' },
              async (rows) => {
                let out = '';
                for (const r of rows) {
                  // Errors have no corrected value (the field is not sent); warnings keep the value as it will be sent.
                  for (const e of r.errors)
                    out += csvLine([
                      r.rowNumber,
                      e.field,
                      'error',
                      e.message,
                      r.original[e.field] ?? '',
                      '',
                      '',
                    ]);
                  for (const c of r.corrections)
                    out += csvLine([
                      r.rowNumber,
                      c.field,
                      'correction',
                      c.message,
                      c.original,
                      c.corrected,
                      '',
                    ]);
                  // Dropped: nothing is sent for the field, so there is no corrected value.
                  for (const d of r.drops)
                    out += csvLine([r.rowNumber, d.field, 'dropped', d.message, d.original, '', d.reason]);
                  for (const w of r.warnings)
                    out += csvLine([
                      r.rowNumber,
                      w.field,
                      'warning',
                      w.message,
                      r.original[w.field] ?? '',
                      r.effectiveRow[w.field] ?? '',
                      '',
                    ]);
                }
                await write(out);
              },
            );
            // Repairs of the file itself: one line each, after the rows (their counts are known at the end).
            let notices = '';
            for (const n of summary.fileNotices)
              notices += csvLine(['', '', 'file notice', n.message, '', '', '']);
            if (notices) await write(notices);
            if (summary.error) await write(csvLine(['', '', 'error', summary.error, '', '', '']));
          },
          (err) => request.log.error({ err }, 'report failed'),
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="report.csv"')
          .send(body);
      },
    );

    app.get(
      '/api/uploads/:id/skipped-rows.csv',
      { preValidation: need('member'), schema: { params: Id }, config: { ...perUserLimit(60), xsrf: true } },
      async (request, reply) => {
        // The rows with errors as they are in the file, with why: what a user who skipped them fixes and sends
        // later. Open at any status, a sent file too (its summary links here).
        const f = await files.ownFile(db, uid(request), request.params.id);
        await files.takePass(db, config.quotas, uid(request), f, 'validate', deps.now());
        const body = streamedBody(
          async (write) => {
            await write(csvLine([...f.headers, 'Errors']));
            await runPipeline(
              db,
              f,
              { mode: 'report', now: deps.now(), previewLimit: 0, lane: 'requests' },
              async (rows) => {
                let out = '';
                for (const r of rows)
                  if (r.values) out += csvLine([...r.values, r.errors.map((e) => e.message).join(' ')]);
                await write(out);
              },
            );
          },
          (err) => request.log.error({ err }, 'skipped rows failed'),
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="skipped-rows.csv"')
          .send(body);
      },
    );

    app.get(
      '/api/uploads/:id/prepare',
      { preValidation: need('member'), schema: { params: Id }, config: { ...perUserLimit(60), xsrf: true } },
      async (request): Promise<PrepareResponse> => {
        const { job } = await startJob(jd, uid(request), request.params.id, 'prepare');
        return (await jobOutcome(jd, job.id)) as PrepareResponse;
      },
    );

    app.get(
      '/api/uploads/:id/preview',
      {
        preValidation: need('member'),
        schema: {
          params: Id,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
        },
      },
      async (request) =>
        files.previewFile(db, uid(request), request.params.id, deps.now(), request.query.limit),
    );

    app.get(
      '/api/uploads/:id/preview/full',
      { preValidation: need('member'), schema: { params: Id }, config: { ...perUserLimit(60), xsrf: true } },
      async (request, reply) => {
        const f = await files.ownFile(db, uid(request), request.params.id);
        if (f.status !== 'validated' && f.status !== 'prepared')
          throw new AppError('INVALID_STATE', 'File is not ready to be submitted.');
        await files.takePass(db, config.quotas, uid(request), f, 'prepare', deps.now());
        const body = streamedBody(
          async (write) => {
            let first = true;
            await write('[');
            await runPipeline(
              db,
              f,
              { mode: 'events', now: deps.now(), previewLimit: 0, lane: 'requests' },
              async (items) => {
                let out = '';
                for (const it of items) {
                  out += (first ? '\n' : ',\n') + it.event.json;
                  first = false;
                }
                await write(out);
              },
            );
            await write('\n]\n');
          },
          (err) => request.log.error({ err }, 'full preview failed'),
        );
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="prepared-${f.id}.json"`)
          .send(body);
      },
    );
  };
