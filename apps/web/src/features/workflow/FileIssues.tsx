import type { UploadResponse } from '@backsignal/contracts';

export type CsvIssue = UploadResponse['issues'][number];

const SHOWN = 5;

/** One line for a toast after an upload: the first read problem, and how many more there are. */
export function issuesNotice(issues: readonly CsvIssue[]): string | null {
  if (!issues.length) return null;
  const more = issues.length - 1;
  return `We read your file, but: ${issues[0]!.message}${more ? ` (and ${more} more ${more === 1 ? 'problem' : 'problems'}, listed on the validation step)` : ''}`;
}

/** Problems met while reading the CSV itself (blank or duplicate headers, odd characters, broken quotes, short rows). */
export function FileIssues({ issues }: { issues: readonly CsvIssue[] }) {
  if (!issues.length) return null;
  return (
    <section
      aria-labelledby="file-issues-title"
      className="rounded-2xl bg-amber-50 px-5 py-4 ring-1 ring-inset ring-amber-200"
    >
      <h2 id="file-issues-title" className="text-base font-semibold text-amber-900">
        Problems reading your file ({issues.length})
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        These parts of the file may not have been read the way you expect. Check them, or upload a corrected
        CSV.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm break-words text-amber-900">
        {issues.slice(0, SHOWN).map((i, n) => (
          <li key={n}>{i.message}</li>
        ))}
      </ul>
      {issues.length > SHOWN && (
        <p className="mt-1 text-sm text-amber-900">…and {issues.length - SHOWN} more.</p>
      )}
    </section>
  );
}
