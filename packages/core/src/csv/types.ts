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
}

export type CsvFatalCode = 'EMPTY' | 'HEADER_ONLY' | 'BINARY' | 'NOT_TEXT' | 'TOO_LONG';

export type CsvItem =
  | { kind: 'header'; info: CsvHeaderInfo }
  | { kind: 'row'; rowNumber: number; values: string[] }
  | { kind: 'issue'; issue: CsvIssue }
  | { kind: 'fatal'; code: CsvFatalCode; message: string };

export interface CsvOptions {
  /** Longer cells are cut to this many characters (with an issue). Default 10,000. */
  maxCellChars?: number;
  /** A record longer than this stops the read (usually an unclosed quote). Default 1,000,000. */
  maxLineChars?: number;
}
