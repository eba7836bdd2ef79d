/**
 * The app's screens, by their first path segment: they answer under a workspace's address (`/w/<slug>/…`,
 * decision 0104), in the web router and on the server that serves the SPA shell for them.
 */
export const APP_SCREENS = [
  '/dashboard',
  '/map-columns',
  '/verify-data',
  '/submit',
  '/pixel-accounts',
  '/summary',
  '/sources',
  '/insights',
  '/settings',
] as const;

/** Whether `path` is one of the screens or below one (`/sources/<id>/edit`, `/settings/activity`). */
export const isAppScreen = (path: string): boolean =>
  APP_SCREENS.some(
    (p) => path === p || path.startsWith(p + '/') || path.startsWith(p + '?') || path.startsWith(p + '#'),
  );
