import type { ActivityKind, ActivityPage, ActivityPeople, WorkspaceSummary } from '@backsignal/contracts';
import { api, download } from '../../lib/api.ts';

export interface ActivityFilters {
  person: string;
  kind: ActivityKind | '';
  from: string;
  to: string;
}

export const NO_FILTERS: ActivityFilters = { person: '', kind: '', from: '', to: '' };

/** The filters as a query string; empty ones left out. */
export function activityQuery(f: ActivityFilters, before?: string | null): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  if (before) q.set('before', before);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const activityApi = {
  workspace: () => api<WorkspaceSummary>('/api/workspace'),
  page: (f: ActivityFilters, before?: string | null) =>
    api<ActivityPage>(`/api/workspace/activity${activityQuery(f, before)}`),
  people: () => api<ActivityPeople>('/api/workspace/activity/people'),
  // A fetch with the XSRF header, never a plain link: the download needs it.
  downloadCsv: (f: ActivityFilters) =>
    download(`/api/workspace/activity.csv${activityQuery(f)}`, 'activity.csv'),
};

const DETAIL_TEXT: Record<string, string> = {
  rows: 'rows',
  rowsSkipped: 'rows skipped',
  sent: 'sent',
  failed: 'failed',
  filesDeleted: 'files deleted',
};

/** Details shown as a word and the value after it. */
const PREFIX: Record<string, string> = { pixelId: 'pixel', source: 'source', status: '' };

/** An entry's details in words: "pixel 123 · 40 sent · 2 failed". */
export function detailsText(d: Record<string, string | number | boolean>): string {
  return Object.entries(d)
    .map(([k, v]) =>
      k === 'ok'
        ? v
          ? 'connection OK'
          : 'connection failed'
        : k === 'retry'
          ? 'retry'
          : k === 'reason'
            ? String(v)
            : k in PREFIX
              ? `${PREFIX[k]} ${k === 'status' ? String(v).replace(/_/g, ' ') : String(v)}`.trim()
              : `${String(v)} ${DETAIL_TEXT[k] ?? k}`,
    )
    .join(' · ');
}
