import type { UploadSummary } from '@backsignal/contracts';
import { STATUS_BADGE } from '../workflow/workflow-api.ts';

export interface FileBadge {
  label: string;
  tone: string;
  /** '234 sent · 66 failed': the counts behind the word, or null. */
  detail: string | null;
}

const n = (v: number) => v.toLocaleString();

/**
 * What a file's badge says. Before sending, its status (spec §4's colours). Once submitted, the outcome of its
 * latest send: a send with failures is not a green 'submitted' (see docs/decisions/0060).
 */
export function fileBadge(f: Pick<UploadSummary, 'status' | 'delivery'>): FileBadge {
  const d = f.delivery;
  if (f.status !== 'submitted' || !d)
    return { label: f.status, tone: STATUS_BADGE[f.status] ?? STATUS_BADGE.uploaded!, detail: null };
  const counts = d.failed ? `${n(d.sent)} sent · ${n(d.failed)} failed` : `${n(d.sent)} sent`;
  switch (d.status) {
    case 'running':
      return {
        label: 'sending',
        tone: 'bg-blue-100 text-blue-800 ring-blue-300',
        detail: `${counts} so far`,
      };
    case 'completed':
      // Green means events reached Meta: a send that left every event out as already delivered sent nothing.
      if (!d.sent)
        return {
          label: 'nothing new sent',
          tone: 'bg-slate-100 text-slate-700 ring-slate-300',
          detail: d.skipped ? `${n(d.skipped)} already delivered` : '0 sent',
        };
      return { label: 'sent', tone: STATUS_BADGE.submitted!, detail: counts };
    case 'completed_with_errors':
      if (!d.sent) return { label: 'not sent', tone: 'bg-red-100 text-red-800 ring-red-300', detail: counts };
      return {
        label: 'sent with errors',
        tone: 'bg-orange-100 text-orange-800 ring-orange-300',
        detail: counts,
      };
    case 'stopped':
      return { label: 'stopped', tone: 'bg-red-100 text-red-800 ring-red-300', detail: counts };
  }
}

/**
 * What tells a file apart from another of the same name: rows, when it was uploaded and the pixel it was sent to
 * ('120 rows · 28 Nov 2026, 06:12 · sent to Shop pixel'). A source's files are listed under their source.
 */
export function fileDetails(
  f: Pick<UploadSummary, 'rowCount' | 'createdAt' | 'delivery'>,
  locale?: string,
): string {
  const when = new Date(f.createdAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const parts = [`${n(f.rowCount)} ${f.rowCount === 1 ? 'row' : 'rows'}`, when];
  const pixel = f.delivery?.pixel;
  if (pixel) parts.push(`sent to ${pixel.name || pixel.pixelId}`);
  return parts.join(' · ');
}
