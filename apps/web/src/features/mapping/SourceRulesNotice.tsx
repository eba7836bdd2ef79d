import type { SourceRuleProblem } from '@backsignal/core/browser';

/**
 * Meta's per-source rules (website needs event_source_url, app needs its app data) said on the mapping screen,
 * before validation finds them on every row (issue 29). A fixed action_source blocks Continue (every row would
 * fail); a column's samples only warn, since the rows below them may be of other sources.
 */
export function SourceRulesNotice({ problems }: { problems: readonly SourceRuleProblem[] }) {
  if (!problems.length) return null;
  return (
    <section
      aria-labelledby="source-rules-title"
      className="rounded-2xl bg-amber-50 px-5 py-4 ring-1 ring-inset ring-amber-300"
    >
      <h2 id="source-rules-title" className="text-base font-semibold text-amber-900">
        Meta will refuse these events as mapped
      </h2>
      <ul className="mt-1 space-y-1 text-sm break-words text-amber-900">
        {problems.map((p) => (
          <li key={`${p.source}-${p.scope}`}>{p.message}</li>
        ))}
      </ul>
    </section>
  );
}
