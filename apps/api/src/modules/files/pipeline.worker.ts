/**
 * Runs the CSV → validation → event pipeline off the main thread, so a large file never blocks the API's
 * event loop. The main thread feeds stored chunks one at a time and waits for each answer (backpressure).
 * A worker is reused from a small pool: each job starts with a 'start' message that resets all state.
 */
import { parentPort } from 'node:worker_threads';
import {
  FIELD_BY_KEY,
  createCsvReader,
  createDuplicateTracker,
  createEventWriter,
  createMatchQualityTracker,
  createRowValidator,
  createSourceRuleTracker,
  fixCode,
  headerProblem,
  isRefundRow,
  markDuplicate,
  validationNotices,
  windowFor,
  type CsvIssue,
  type FileNotice,
  type EventWriter,
  type RowResult,
  type ValidationContext,
  type ValidationStats,
} from '@backsignal/core';
import type {
  PipelineInput,
  PipelineMessage,
  PipelineRequest,
  PipelineSummary,
  PreparedEvent,
  ReportRow,
} from './pipeline-types.ts';
import { createEventPacker } from './packed-events.ts';
import { previewMix } from './preview-mix.ts';

const port = parentPort!;
let input!: PipelineInput;
let reader!: ReturnType<typeof createCsvReader>;
let quality!: ReturnType<typeof createMatchQualityTracker>;
let duplicates!: ReturnType<typeof createDuplicateTracker>;
let summary!: PipelineSummary;
let validate: ((values: readonly string[], rowNumber: number) => RowResult) | null = null;
let writeEvent: EventWriter | null = null;
let stopped = false;
const packer = createEventPacker();
/** Target field → index of the column mapped to it, for the report's original values. */
let columnOf = new Map<string, number>();
/** Candidates for the preview, one list per severity (see previewMix). */
let previewErrors: RowResult[] = [];
let previewDropped: RowResult[] = [];
let previewCorrected: RowResult[] = [];
let readerNotices: FileNotice[] = [];
let stats: ValidationStats = { trimmedCells: 0 };
let trimmedHeaders = 0;
/** Rows of a source whose fields nothing gives (website without event_source_url): one file-level message. */
let sourceRules: ReturnType<typeof createSourceRuleTracker> | null = null;

function start(job: PipelineInput) {
  input = job;
  reader = createCsvReader();
  quality = createMatchQualityTracker();
  duplicates = createDuplicateTracker();
  summary = {
    rowsChecked: 0,
    rowsWithErrors: 0,
    rowsCorrected: 0,
    rowsWithWarnings: 0,
    rowsWithDrops: 0,
    drops: {},
    repeatedRows: 0,
    refundRows: 0,
    preview: [],
    fileIssues: [],
    fileNotices: [],
    quality: null,
    validEvents: 0,
    validUntil: null,
    stoppedEarly: false,
  };
  validate = null;
  writeEvent = null;
  stopped = false;
  columnOf = new Map();
  previewErrors = [];
  previewDropped = [];
  previewCorrected = [];
  readerNotices = [];
  stats = { trimmedCells: 0 };
  trimmedHeaders = 0;
  sourceRules = createSourceRuleTracker({ mappings: job.ctx.mappings, hardcoded: job.ctx.hardcoded });
}

/** The value a field had in the file: its mapped cell, its hardcoded value, or for 'user_data' every mapped customer column. */
function originalValue(field: string, values: readonly string[]): string {
  const i = columnOf.get(field);
  if (i !== undefined) return values[i] ?? '';
  const fixed = input.ctx.hardcoded[field];
  if (fixed !== undefined) return fixed;
  if (field === 'user_data') {
    return [...columnOf]
      .filter(([f]) => FIELD_BY_KEY.get(f)?.placement === 'user_data')
      .map(([f, c]) => `${f}=${values[c] ?? ''}`)
      .join('; ');
  }
  return '';
}

function withOriginals(r: RowResult, values: readonly string[]): ReportRow {
  const original: Record<string, string> = {};
  for (const p of [...r.errors, ...r.warnings]) original[p.field] ??= originalValue(p.field, values);
  return r.errors.length ? { ...r, original, values } : { ...r, original };
}

function handle(items: ReturnType<typeof reader.push>, out: unknown[]) {
  for (const item of items) {
    if (stopped) return;
    switch (item.kind) {
      case 'fatal':
        summary.error = item.message;
        stopped = true;
        return;
      case 'issue':
        if (summary.fileIssues.length < 50) summary.fileIssues.push(item.issue as CsvIssue);
        break;
      case 'notice':
        readerNotices.push(item.notice);
        break;
      case 'header': {
        // Blank or repeated column names: reported with the file's other read problems.
        for (const issue of item.info.issues)
          if (summary.fileIssues.length < 50) summary.fileIssues.push(issue);
        const ctx: ValidationContext = { ...input.ctx, headers: item.info.headers };
        const problem = headerProblem(ctx);
        if (problem) {
          summary.error = problem;
          stopped = true;
          return;
        }
        validate = createRowValidator(ctx, stats);
        trimmedHeaders = item.info.trimmedHeaders;
        writeEvent = createEventWriter();
        columnOf = new Map(
          item.info.headers.flatMap((h, i) => {
            const field = input.ctx.mappings[h];
            return field ? [[field, i] as const] : [];
          }),
        );
        break;
      }
      case 'row': {
        let r = validate!(item.values, item.rowNumber);
        summary.rowsChecked++;
        const bad = r.errors.length > 0;
        const first = bad
          ? null
          : duplicates.check(r.effectiveRow.event_name ?? '', r.effectiveRow.event_id ?? '', item.rowNumber);
        const repeat = first !== null;
        if (repeat) {
          r = markDuplicate(r, first);
          summary.repeatedRows++;
        }
        if (bad) summary.rowsWithErrors++;
        else {
          const deadline = Number(r.effectiveRow.event_time) + windowFor(r.effectiveRow.action_source);
          if (deadline < (summary.validUntil ?? Infinity)) summary.validUntil = deadline;
        }
        sourceRules!.add(r.effectiveRow);
        // A refund is counted once, as the row that would be sent: not a row with errors, not a repeat.
        const refund = !bad && !repeat && isRefundRow(r.effectiveRow);
        if (refund) summary.refundRows++;
        if (r.corrections.length) summary.rowsCorrected++;
        if (r.warnings.length) summary.rowsWithWarnings++;
        // A row with errors is not sent at all: what it would have lost is not counted as lost.
        if (r.drops.length && !bad) {
          summary.rowsWithDrops++;
          for (const d of r.drops) {
            const key = `${d.field} ${d.reason}`;
            summary.drops[key] = (summary.drops[key] ?? 0) + 1;
          }
        }
        // Only a validation reports the match quality: a send or a preview would score every row for nothing.
        if (!bad && !repeat && input.mode === 'validate') quality.add(r);
        const problem = bad || r.corrections.length > 0 || r.drops.length > 0 || r.warnings.length > 0;
        // Spec: the preview shows rows with errors or corrections; by severity: errors, then rows with a dropped
        // value, then corrections (previewMix). Warning-only rows stay in the report.
        if (bad) {
          if (previewErrors.length < input.previewLimit) previewErrors.push(r);
        } else if (r.drops.length) {
          if (previewDropped.length < input.previewLimit) previewDropped.push(r);
        } else if (r.corrections.length && previewCorrected.length < input.previewLimit)
          previewCorrected.push(r);
        if (input.mode === 'report' && problem) out.push(withOriginals(r, item.values));
        // Refunds go out only when the user chose to send them (docs/decisions/0098).
        if (input.mode === 'events' && !bad && !repeat && !(refund && input.refunds !== 'send')) {
          summary.validEvents++;
          const event = writeEvent!(r);
          // What Insights counts as fixed automatically; most rows have no correction and cost one comparison.
          const fixes = r.corrections.length === 0 ? 0 : fixCode(r.corrections, r.drops);
          if (input.packed) packer.add(item.rowNumber, event, event.match, fixes);
          else {
            event.fixes = fixes;
            // Measured here, natively, so the sending thread's batcher does not count it in JavaScript.
            event.bytes = Buffer.byteLength(event.json);
            const prepared: PreparedEvent = { rowNumber: item.rowNumber, event };
            if (input.withValues) prepared.values = item.values;
            if (input.withNormalized) prepared.normalized = r.effectiveRow;
            out.push(prepared);
          }
          if (input.stopAfterEvents && summary.validEvents >= input.stopAfterEvents) {
            // A preview needs only its first events: stop reading instead of building the whole file.
            summary.stoppedEarly = true;
            stopped = true;
            return;
          }
        }
        break;
      }
    }
  }
}

function postItems(items: unknown[], done: boolean) {
  const p = packer.take();
  const msg: PipelineMessage = { type: 'items', items, stopped: done, rows: summary.rowsChecked };
  if (p) msg.packed = p.packed;
  port.postMessage(msg, p?.transfer ?? []);
}

port.on('message', (msg: PipelineRequest) => {
  if (msg.type === 'start') return start(msg.input);
  const out: unknown[] = [];
  if (msg.type === 'chunk') {
    if (!stopped) handle(reader.push(msg.data), out);
    postItems(out, stopped);
    return;
  }
  if (!stopped) handle(reader.end(), out);
  if (!summary.error && !summary.stoppedEarly) {
    const problem = sourceRules!.result(summary.rowsChecked);
    if (problem) summary.error = problem;
  }
  summary.quality = summary.rowsChecked && input.mode === 'validate' ? quality.result() : null;
  if (!summary.error)
    summary.fileNotices = validationNotices(
      readerNotices,
      new Set(Object.keys(input.ctx.mappings).filter((c) => input.ctx.mappings[c])),
      trimmedHeaders,
      stats.trimmedCells,
      stats.amounts,
    );
  summary.preview = previewMix([previewErrors, previewDropped, previewCorrected], input.previewLimit);
  postItems(out, true);
  port.postMessage({ type: 'done', summary } satisfies PipelineMessage);
});
