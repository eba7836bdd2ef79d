import { Link } from '../lib/ws-router.tsx';
import { usePageMeta } from '../lib/page-meta.ts';
import { useSession } from '../lib/session.tsx';

/**
 * Any unknown address; `workspace`: a /w/<slug> address the user is not in (or no longer: removed, or the
 * address changed). It says only that: whether the workspace exists is not the user's to learn.
 */
export function NotFoundPage({ workspace = false }: { workspace?: boolean }) {
  usePageMeta({
    title: `${workspace ? 'Workspace' : 'Page'} not found | Backsignal`,
    description: "The page you're looking for doesn't exist.",
  });
  const signedIn = useSession().status === 'loggedIn';
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">
        {workspace ? 'Workspace not found.' : "Oops! The page you're looking for doesn't exist."}
      </h1>
      {workspace && (
        <p className="mt-3 text-sm text-slate-600">
          This address names no workspace you are a member of. Its address may have changed, or you may no
          longer be a member: ask its owner for a new link.
        </p>
      )}
      <Link
        to={signedIn ? '/dashboard' : '/'}
        className="mt-8 rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        {signedIn ? (workspace ? 'Back to your workspace' : 'Back to Dashboard') : 'Go back home'}
      </Link>
    </section>
  );
}
