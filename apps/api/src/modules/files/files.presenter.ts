import type { RowResult } from '@backsignal/core';
import type { UploadSummary, ValidationRow } from '@backsignal/contracts';
import type { UploadRow } from './files.repo.ts';

export const presentUpload = (f: UploadRow): UploadSummary => ({
  id: f.id,
  fileName: f.fileName,
  status: f.status,
  rowCount: f.rowCount,
  sizeBytes: f.sizeBytes,
  createdAt: f.createdAt.toISOString(),
  corrected: f.fileVersion > 1,
});

export const presentRow = (r: RowResult): ValidationRow => ({
  rowNumber: r.rowNumber,
  hasErrors: r.errors.length > 0,
  hasCorrections: r.corrections.length > 0,
  errors: r.errors,
  corrections: r.corrections,
  warnings: r.warnings,
  effectiveRow: r.effectiveRow,
});
