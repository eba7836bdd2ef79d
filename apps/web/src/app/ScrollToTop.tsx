import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Spec §2: every route change scrolls to the top. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
