import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { dismissStaleToasts } from '../lib/stale-toasts.ts';

/**
 * Spec §2: every route change scrolls to the top. Focus then moves to the new page's heading: without it, focus
 * stays on the link just followed (or falls to the body when that link is gone), so a keyboard user starts
 * again from the header and a screen reader says nothing about the new page (WCAG 2.4.3). The first page load
 * keeps the browser's own focus. Toasts about the page left behind are closed.
 */
export function RouteChange() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    window.scrollTo(0, 0);
    if (first.current) {
      first.current = false;
      return;
    }
    dismissStaleToasts();
    return focusNewPage(document);
  }, [pathname]);
  return null;
}

// A lazily loaded page, or one that waits for its data, shows its heading a moment later.
const WAIT_MS = 3000;

/**
 * Focuses the page heading (`#main h1`) once it is there, unless focus is already in the page (a form that
 * focuses its first field) or the user has moved it meanwhile. Answers a cleanup that stops waiting.
 */
function focusNewPage(doc: Document): () => void {
  const main = () => doc.getElementById('main');
  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    doc.removeEventListener('focusin', stop);
  };
  const attempt = () => {
    if (done) return;
    const page = main();
    if (page?.contains(doc.activeElement)) return stop();
    const heading = page?.querySelector('h1');
    if (!heading) return;
    stop();
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  };
  const observer = new MutationObserver(attempt);
  const timer = setTimeout(stop, WAIT_MS);
  observer.observe(doc.body, { childList: true, subtree: true });
  attempt();
  // Added after the first attempt, so only the user's own moves (a click, Tab) end the wait.
  if (!done) doc.addEventListener('focusin', stop);
  return stop;
}
