import { Link } from '../../lib/ws-router.tsx';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
      <img src="/favicon.svg" alt="" className="h-7 w-7" />
      Backsignal
    </Link>
  );
}
