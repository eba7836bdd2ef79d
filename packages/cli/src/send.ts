import type {
  DeliverySummary,
  Named,
  PixelAccount,
  PrepareResult,
  UploadFile,
  UploadJob,
  ValidationResult,
} from './api-types.ts';
import { sleep, type Api } from './client.ts';
import { CliError } from './errors.ts';
import { outcomeOf, type SendOutcome } from './outcome.ts';
import { count, type Reporter } from './progress.ts';
import { uploadFile } from './upload.ts';

export interface SendOptions {
  template: string;
  pixel: string;
  testCode?: string;
  skipErrors?: boolean;
  refunds?: 'skip' | 'send';
  wait?: boolean;
}

const POLL_MS = 1000;

/** The one item a name stands for, whatever its case; a pixel account also by its pixel id. */
export function findByName<T extends Named>(
  items: T[],
  name: string,
  what: string,
  alt?: (t: T) => string,
): T {
  const wanted = name.trim().toLowerCase();
  const found = items.find((t) => t.name.toLowerCase() === wanted || alt?.(t) === name.trim());
  if (found) return found;
  const known = items.map((t) => `"${t.name}"`).join(', ');
  throw new CliError(
    `No ${what} is named "${name}".${known ? ` This workspace has: ${known}.` : ''}`,
    'NOT_FOUND',
  );
}

/** Starts a validation or prepare job and follows it to its result (the screens' background jobs). */
async function runJob<R>(
  api: Api,
  uploadId: string,
  kind: 'validate' | 'prepare',
  body: object,
  report: Reporter,
): Promise<R> {
  const label = kind === 'validate' ? 'Checking rows' : 'Preparing events';
  let { job } = await api.post<{ job: UploadJob<R> }>(`/api/v1/uploads/${uploadId}/jobs/${kind}`, body);
  while (job.status === 'running') {
    report.progress(label, job.rowsDone, job.rowsTotal, 'rows');
    await sleep(POLL_MS);
    job = (await api.get<{ job: UploadJob<R> }>(`/api/v1/uploads/${uploadId}/jobs/${kind}`)).job;
  }
  if (job.status === 'failed' || !job.result)
    throw new CliError(job.error?.message ?? `The file could not be ${kind}d.`, job.error?.code);
  report.progress(label, job.rowsTotal, job.rowsTotal, 'rows');
  return job.result;
}

/** Follows a send until it ends, showing events sent of those to send. */
export async function followSend(api: Api, uploadId: string, report: Reporter): Promise<DeliverySummary> {
  for (;;) {
    const s = await api.get<DeliverySummary>(`/api/v1/uploads/${uploadId}/summary`);
    const p = s.progress;
    const done = p.eventsSent + p.eventsFailed;
    report.progress('Sending', done, p.totalEvents ?? done, 'events');
    if (s.status !== 'running') return s;
    await sleep(POLL_MS);
  }
}

/**
 * `backsignal send`: checks the template and pixel account exist, uploads the file (tus), maps it with the
 * template, validates, prepares (leaving rows with errors out only with --skip-errors) and starts the send;
 * with --wait, follows it to the end.
 */
export async function send(
  api: Api,
  path: string,
  opts: SendOptions,
  stateDir: string,
  report: Reporter,
): Promise<SendOutcome> {
  // Refused before a byte is sent: a wrong name should not cost an upload.
  const template = findByName(await api.all<Named>('/api/v1/templates'), opts.template, 'template');
  const pixel = findByName(
    await api.all<PixelAccount>('/api/v1/pixel-accounts'),
    opts.pixel,
    'pixel account',
    (p) => p.pixelId,
  );

  const { file: uploaded, resumed } = await uploadFile(
    api,
    path,
    stateDir,
    (sent, total) => report.progress('Uploading', sent, total, 'bytes'),
    () => report.line('Upload complete. Reading the file...'),
  );
  let file: UploadFile = uploaded;
  report.line(
    `Uploaded${resumed ? ' (continued where an earlier run stopped)' : ''}: ${file.fileName}, ${count(file.rowCount)} rows (upload ${file.id})`,
  );

  file = await api.put<UploadFile>(`/api/v1/uploads/${file.id}/mapping`, { template: template.name });
  const validation = await runJob<ValidationResult>(api, file.id, 'validate', {}, report);
  if (validation.error) throw new CliError(validation.error, 'VALIDATION_FAILED');
  if (validation.rowsWithErrors > 0 && !opts.skipErrors)
    throw new CliError(
      `${count(validation.rowsWithErrors)} of ${count(validation.rowsChecked)} rows have errors. Fix them, or pass --skip-errors to send the other rows.`,
      'ROWS_WITH_ERRORS',
    );
  if (validation.refundRows > 0 && validation.refundChoice === 'ask' && !opts.refunds)
    throw new CliError(
      `${count(validation.refundRows)} rows are refunds (a Purchase with a negative value). Pass --refunds skip or --refunds send.`,
      'REFUND_CHOICE',
    );
  report.line(
    `Checked ${count(validation.rowsChecked)} rows: ${count(validation.rowsWithErrors)} with errors.`,
  );

  const prepared = await runJob<PrepareResult>(
    api,
    file.id,
    'prepare',
    { skipErrorRows: opts.skipErrors === true, ...(opts.refunds ? { refunds: opts.refunds } : {}) },
    report,
  );
  report.line(`Prepared ${count(prepared.totalCount)} events.`);

  await api.post(`/api/v1/uploads/${file.id}/send`, {
    selectedAccountId: pixel.id,
    ...(opts.testCode ? { testEventCode: opts.testCode } : {}),
  });
  report.line(
    `Sending to ${pixel.name} (pixel ${pixel.pixelId})${opts.testCode ? ` with test code ${opts.testCode}` : ''}.`,
  );
  const skipped = { errorRows: prepared.skippedErrorRows, refundRows: prepared.skippedRefundRows };
  const summary = opts.wait
    ? await followSend(api, file.id, report)
    : await api.get<DeliverySummary>(`/api/v1/uploads/${file.id}/summary`);
  return outcomeOf(file, summary, skipped);
}
