export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** A problem in the file, reported as data; rowNumber counts records with the header as row 1. */
export interface CsvIssue {
  rowNumber: number | null;
  code: string;
  message: string;
}

export interface CsvHeaderInfo {
  /** Trimmed, unique, non-blank names (what mappings use). */
  headers: string[];
  /** As written in the file. */
  originalHeaders: string[];
  encoding: CsvEncoding;
  delimiter: string;
  issues: CsvIssue[];
  /** How many names had whitespace around them (trimmed: part of the WHITESPACE_TRIMMED notice). */
  trimmedHeaders: number;
}

export type FileNoticeCode =
  | 'ENCODING_CONVERTED'
  | 'LINE_ENDINGS'
  | 'BLANK_LINES'
  | 'WHITESPACE_TRIMMED'
  | 'TITLE_SKIPPED'
  | 'LONG_CELLS'
  | 'SEPARATOR_LINE'
  | 'AMOUNT_DECIMAL_COMMA'
  | 'AMOUNT_THOUSANDS';

/**
 * A repair of the file itself (not of one value), named once with how many rows, lines or cells it touched:
 * told after the last row, when the counts are known.
 */
export interface FileNotice {
  code: FileNoticeCode;
  message: string;
  count: number;
  /** LONG_CELLS: the column (a mapped one's rows are errors instead, so the notice is for the others). */
  column?: string;
}

export type CsvFatalCode = 'EMPTY' | 'HEADER_ONLY' | 'BINARY' | 'NOT_TEXT' | 'TOO_LONG';

export type CsvItem =
  | { kind: 'header'; info: CsvHeaderInfo }
  | { kind: 'row'; rowNumber: number; values: string[] }
  | { kind: 'issue'; issue: CsvIssue }
  | { kind: 'notice'; notice: FileNotice }
  | { kind: 'fatal'; code: CsvFatalCode; message: string };

export interface CsvOptions {
  /** Longer cells are counted per column in a LONG_CELLS notice, never cut. Default 10,000. */
  maxCellChars?: number;
  /** A record longer than this stops the read (usually an unclosed quote). Default 1,000,000. */
  maxLineChars?: number;
}
