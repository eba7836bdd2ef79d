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
      return { label: 'sent', tone: STATUS_BADGE.submitted!, detail: counts };
    case 'completed_with_errors':
      return {
        label: 'sent with errors',
        tone: 'bg-orange-100 text-orange-800 ring-orange-300',
        detail: counts,
      };
    case 'stopped':
      return { label: 'stopped', tone: 'bg-red-100 text-red-800 ring-red-300', detail: counts };
  }
}
