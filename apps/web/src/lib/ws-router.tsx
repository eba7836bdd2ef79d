/**
 * react-router's Link, NavLink, Navigate and useNavigate, keeping the /w/<slug> prefix of the workspace the user
 * is in (decision 0104): screens name their targets as before ('/dashboard', `/summary?fileId=…`), and every
 * in-app link stays a shareable address of the same workspace. Paths outside the app's screens pass unchanged.
 */
import { forwardRef, useCallback } from 'react';
import {
  Link as RouterLink,
  Navigate as RouterNavigate,
  NavLink as RouterNavLink,
  useNavigate as useRouterNavigate,
  type LinkProps,
  type NavigateOptions,
  type NavigateProps,
  type NavLinkProps,
  type To,
} from 'react-router';
import { useWorkspaceSlug, wsPath } from './workspace.tsx';

const prefix = (slug: string | null, to: To): To =>
  typeof to === 'string'
    ? wsPath(slug, to)
    : to.pathname
      ? { ...to, pathname: wsPath(slug, to.pathname) }
      : to;

/** The active workspace's address of an app path, for links built outside the components below. */
export function useWorkspacePath(): (to: string) => string {
  const slug = useWorkspaceSlug();
  return useCallback((to: string) => wsPath(slug, to), [slug]);
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, ...props }, ref) {
  return <RouterLink ref={ref} to={prefix(useWorkspaceSlug(), to)} {...props} />;
});

export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink({ to, ...props }, ref) {
  return <RouterNavLink ref={ref} to={prefix(useWorkspaceSlug(), to)} {...props} />;
});

export function Navigate({ to, ...props }: NavigateProps) {
  return <RouterNavigate to={prefix(useWorkspaceSlug(), to)} {...props} />;
}

export function useNavigate() {
  const navigate = useRouterNavigate();
  const slug = useWorkspaceSlug();
  return useCallback(
    (to: To | number, options?: NavigateOptions) =>
      typeof to === 'number' ? navigate(to) : navigate(prefix(slug, to), options),
    [navigate, slug],
  );
}
