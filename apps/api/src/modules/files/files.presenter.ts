import { describeDrops, type DropReason, type RowResult } from '@backsignal/core';
import type { DroppedValues, UploadSummary, ValidationRow } from '@backsignal/contracts';
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
  hasDrops: r.drops.length > 0,
  drops: r.drops,
  warnings: r.warnings,
  effectiveRow: r.effectiveRow,
});

/** The pipeline's "field reason" counts as lines for the validation screen, most first. */
export const presentDrops = (counts: Record<string, number>): DroppedValues[] =>
  Object.entries(counts)
    .map(([key, count]) => {
      const [field = '', reason = ''] = key.split(' ');
      return { field, reason, count, message: describeDrops(field, reason as DropReason, count) };
    })
    .sort((a, b) => b.count - a.count || a.field.localeCompare(b.field));
