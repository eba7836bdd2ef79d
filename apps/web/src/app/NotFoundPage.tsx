import { Link } from '../lib/ws-router.tsx';
import { usePageMeta } from '../lib/page-meta.ts';
import { useSession } from '../lib/session.tsx';

export function NotFoundPage() {
  usePageMeta({
    title: 'Page not found | Backsignal',
    description: "The page you're looking for doesn't exist.",
  });
  const signedIn = useSession().status === 'loggedIn';
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">
        Oops! The page you're looking for doesn't exist.
      </h1>
      <Link
        to={signedIn ? '/dashboard' : '/'}
        className="mt-8 rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        {signedIn ? 'Back to Dashboard' : 'Go back home'}
      </Link>
    </section>
  );
}
