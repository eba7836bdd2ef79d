import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { Link, useSearchParams } from 'react-router';
import { auditScore, LEAK_STATEMENTS, parseLeaks } from '@backsignal/contracts/public';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { AuditFaq } from './AuditPage.tsx';
import { LEAKS } from './leaks.ts';

const COLORS = {
  green: 'text-emerald-600 ring-emerald-200 bg-emerald-50',
  yellow: 'text-amber-600 ring-amber-200 bg-amber-50',
  red: 'text-red-600 ring-red-200 bg-red-50',
};

export function AuditResultsPage() {
  usePageMeta(PUBLIC_PAGES['/audit-results']!);
  const [params] = useSearchParams();
  // The score comes from ?leaks=, which the prerendered page does not have: it renders after hydration.
  const hydrated = useHydrated();
  const keys = parseLeaks(params.get('leaks'));
  const s = auditScore(keys);
  return (
    <>
      <section className="mx-auto max-w-4xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Your tracking score</h1>
        {hydrated ? (
          <>
            <p
              data-testid="score"
              data-color={s.color}
              className={`mx-auto mt-6 inline-flex h-36 w-36 items-center justify-center rounded-full text-5xl font-bold ring-8 ${COLORS[s.color]}`}
            >
              {s.score}
            </p>
            <p className="mt-4 text-xl font-semibold text-slate-900">{s.verdict}</p>
            {s.costLine && <p className="mx-auto mt-2 max-w-2xl text-slate-600">{s.costLine}</p>}
          </>
        ) : (
          <p
            aria-busy="true"
            className="mx-auto mt-6 inline-flex h-36 w-36 items-center justify-center rounded-full bg-slate-50 text-lg text-slate-600 ring-8 ring-slate-200"
          >
            Scoring…
          </p>
        )}
      </section>
      {hydrated && (
        <section className="mx-auto grid max-w-5xl gap-4 px-4 pb-16 md:grid-cols-2">
          {LEAK_STATEMENTS.map((l) => {
            const copy = LEAKS[l.key];
            const have = keys.includes(l.key);
            return (
              <article
                key={l.key}
                className={`rounded-2xl border p-6 shadow-sm ${have ? 'border-emerald-200 bg-white' : 'border-red-200 bg-white'}`}
              >
                <p
                  className={`text-xs font-semibold uppercase tracking-wide ${have ? 'text-emerald-700' : 'text-red-700'}`}
                >
                  {have ? 'Have it' : 'Missing'}
                </p>
                <h2 className="mt-1 text-lg font-semibold text-slate-900">{copy.title}</h2>
                {have ? (
                  <>
                    <p className="mt-2 text-slate-700">{copy.fixed.summary}</p>
                    <p className="mt-2 text-sm text-slate-500">Tools: {copy.fixed.tools}</p>
                  </>
                ) : (
                  <>
                    <p className="mt-2 text-slate-700">{copy.missing.summary}</p>
                    <p className="mt-2 text-sm text-slate-700">
                      <strong>Impact:</strong> {copy.missing.impact}
                    </p>
                    <p className="mt-1 text-sm text-slate-500">Tools: {copy.missing.tools}</p>
                    <ul className="mt-2 text-sm">
                      {copy.missing.learnMore.map((m) => (
                        <li key={m.href}>
                          <a
                            href={m.href}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="text-brand-700 underline"
                          >
                            {m.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </article>
            );
          })}
        </section>
      )}
      <p className="pb-8 text-center text-slate-600">
        Want us to fix it?{' '}
        <Link to="/contact" className="font-semibold text-brand-700 underline">
          Contact us
        </Link>
        .
      </p>
      <AuditFaq />
    </>
  );
}
