import { useEffect, useRef } from 'react';

/**
 * Publishes the sticky header's height as `--header-height` on the page, for what must sit below it: toasts
 * (index.css) and the step pill (StepIndicator). The header wraps to two or three rows on a phone, so no fixed offset fits every width.
 */
export function useHeaderHeight<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--header-height', `${header.offsetHeight}px`),
    );
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-height');
    };
  }, []);
  return ref;
}
