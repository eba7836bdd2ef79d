import type { ReactNode } from 'react';
import { ROLE_LABELS, type WorkspaceRole } from '@backsignal/contracts/public';
import { Link } from './ws-router.tsx';
import { useCan, useWorkspaceOptional } from './workspace.tsx';

/**
 * A screen a role cannot use, opened by its address anyway (a shared link, a typed URL): a plain message in its
 * place, never the screen's form failing call by call. The API refuses whatever this shows.
 */
export function RoleGate({ min, what, children }: { min: WorkspaceRole; what: string; children: ReactNode }) {
  const allowed = useCan(min);
  const role = useWorkspaceOptional()?.active?.role;
  if (allowed || !role) return children;
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Not available to your role</h1>
      <p className="mt-3 text-sm text-slate-600">
        You are {/^[AEIOU]/.test(ROLE_LABELS[role]) ? 'an' : 'a'} {ROLE_LABELS[role]} in this workspace, and{' '}
        {what} is for {ROLE_LABELS[min]}s{min === 'owner' ? '' : ' and above'}. Ask an owner or admin of the
        workspace if you need it.
      </p>
      <Link
        to="/dashboard"
        className="mt-8 inline-block rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        Back to Dashboard
      </Link>
    </section>
  );
}
