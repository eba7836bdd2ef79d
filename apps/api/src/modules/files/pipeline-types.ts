import type {
  CsvIssue,
  EncodedEvent,
  FileNotice,
  MatchQuality,
  RefundChoice,
  RowResult,
  ValidationContext,
} from '@backsignal/core';
import type { PackedEvents } from './packed-events.ts';

export type PipelineMode = 'validate' | 'report' | 'events';

export interface PipelineInput {
  mode: PipelineMode;
  ctx: Omit<ValidationContext, 'headers'>;
  previewLimit: number;
  /** 'events' only: stop after this many events (a preview), leaving the rest of the file unread. */
  stopAfterEvents?: number;
  /** 'events' only: each event carries its row's values normalised before hashing (the /submit preview). */
  withNormalized?: boolean;
  /**
   * 'events' only: each event carries its row's cells as in the file (the failed-rows downloads). The send leaves
   * them out: copying every row's cells to the main thread was a tenth of its CPU there.
   */
  withValues?: boolean;
  /** 'events' only: the events come as one buffer per answer (PackedEvents), handed over rather than copied. */
  packed?: boolean;
  /** The file's choice for Purchase rows with a negative value: only 'send' makes them events. */
  refunds: RefundChoice;
}

export interface PipelineSummary {
  rowsChecked: number;
  rowsWithErrors: number;
  rowsCorrected: number;
  rowsWithWarnings: number;
  /** Rows with a dropped value, and the drops counted per "field reason" key. */
  rowsWithDrops: number;
  drops: Record<string, number>;
  /** Rows that repeat an earlier row's event (left out, with a correction). */
  repeatedRows: number;
  /** Rows without errors, not repeats, that are a Purchase with a negative value (a refund; decision 0098). */
  refundRows: number;
  validEvents: number;
  preview: RowResult[];
  fileIssues: CsvIssue[];
  /** Repairs of the file itself, each once with its count (issue 20). */
  fileNotices: FileNotice[];
  /** Validation only (null in the other modes): how well the accepted rows can be matched. */
  quality: MatchQuality | null;
  /**
   * Epoch seconds: the first moment an event of a row without errors becomes too old for Meta (its event_time plus
   * the window of its action_source); null when no row was accepted. Until then a clean result holds.
   */
  validUntil: number | null;
  /** True when stopAfterEvents ended the run before the end of the file (the counts are then partial). */
  stoppedEarly: boolean;
  /** Whole-file failure: unreadable file, or headers that do not match the mapping. */
  error?: string;
}

/** A prepared event with the CSV row it came from (delivery keeps the row for failed-batch downloads). */
export interface PreparedEvent {
  rowNumber: number;
  /** With PipelineInput.withValues: the row's cells as in the file. */
  values?: string[];
  event: EncodedEvent;
  /** With PipelineInput.withNormalized: field → value as normalised, before hashing. */
  normalized?: Record<string, string>;
}

/** A problem row for report.csv, with each problem field's value as it stood in the file. */
export interface ReportRow extends RowResult {
  /** Field → the raw cell of the column mapped to it (or its hardcoded value); for 'user_data', the mapped customer columns. */
  original: Record<string, string>;
  /** Rows with errors only: the row's cells as in the file (the skipped-rows download). */
  values?: readonly string[];
}

/** Main thread → worker: one job is a 'start', its chunks in order, then 'end'. */
export type PipelineRequest =
  { type: 'start'; input: PipelineInput } | { type: 'chunk'; data: Uint8Array } | { type: 'end' };

export type PipelineMessage =
  /** `rows`: rows read so far in this job (progress of a background validation or prepare). */
  | { type: 'items'; items: unknown[]; packed?: PackedEvents; stopped: boolean; rows: number }
  | { type: 'done'; summary: PipelineSummary };
