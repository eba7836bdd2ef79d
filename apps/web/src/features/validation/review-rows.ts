import type { ValidationRow } from '@backsignal/contracts';

export const SEVERITIES = ['error', 'dropped', 'corrected', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A row's worst problem: an error blocks it, a dropped value weakens it, a correction is harmless. */
export function severityOf(r: ValidationRow): Severity {
  if (r.hasErrors) return 'error';
  if (r.hasDrops) return 'dropped';
  if (r.hasCorrections) return 'corrected';
  return 'warning';
}

/**
 * Whether a row belongs under a kind's filter, counted as the summary counts it: any correction (as "Rows
 * auto-corrected"), any warning, errors; a dropped value only on a row without errors (a row not sent loses
 * nothing). So a filter's count and the page's counter can be told side by side (issue 29).
 */
export function hasKind(r: ValidationRow, kind: Severity): boolean {
  if (kind === 'error') return r.hasErrors;
  if (kind === 'dropped') return r.hasDrops && !r.hasErrors;
  if (kind === 'corrected') return r.hasCorrections;
  return r.warnings.length > 0;
}

/** A filter's label: "Corrections (3)", or with more in the file than shown, "Corrections (8 rows; 3 shown)". */
export function filterLabel(kind: Severity, shown: number, total: number | undefined): string {
  const name = SEVERITY_LABEL[kind].filter;
  return total !== undefined && total > shown
    ? `${name} (${total.toLocaleString()} rows; ${shown} shown)`
    : `${name} (${shown})`;
}

/** Most severe first, then in file order. */
export function bySeverity(rows: readonly ValidationRow[]): ValidationRow[] {
  const rank = (r: ValidationRow) => SEVERITIES.indexOf(severityOf(r));
  return [...rows].sort((a, b) => rank(a) - rank(b) || a.rowNumber - b.rowNumber);
}

export const SEVERITY_LABEL: Record<Severity, { one: string; filter: string; badge: string }> = {
  error: { one: 'has errors', filter: 'Errors', badge: 'bg-red-50 text-red-800 ring-red-200' },
  dropped: {
    one: 'value dropped',
    filter: 'Dropped values',
    badge: 'bg-amber-50 text-amber-900 ring-amber-300',
  },
  corrected: { one: 'corrected', filter: 'Corrections', badge: 'bg-brand-50 text-brand-700 ring-brand-100' },
  warning: { one: 'warning', filter: 'Warnings', badge: 'bg-slate-50 text-slate-700 ring-slate-300' },
};
