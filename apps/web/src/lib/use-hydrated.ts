import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/**
 * False while rendering on the server and during hydration, true afterwards (and on client-side
 * navigation). Parts that depend on the URL's query or on the browser render only when true, so the
 * prerendered HTML (which has no query) and the hydrating render always match.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
