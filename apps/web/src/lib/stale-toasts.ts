import { toast, type Id } from 'react-toastify';

/** A toast raised this long before a navigation is about the page being left. */
export const STALE_AFTER_MS = 1000;

const shownAt = new Map<Id, number>();

/** Notes when each toast appeared; answers the unsubscribe. */
export function trackToasts(now: () => number = Date.now): () => void {
  return toast.onChange((t) => {
    if (t.status === 'added') shownAt.set(t.id, now());
    else if (t.status === 'removed') shownAt.delete(t.id);
  });
}

/**
 * On navigation, closes the toasts that belong to the page left behind (a failed login's error must not sit
 * beside the dashboard after the next try worked). A toast raised just before the navigation is its news
 * ('You are now logged in!', 'Cannot submit…' on the way to the dashboard) and stays.
 */
export function dismissStaleToasts(now: () => number = Date.now): void {
  const t = now();
  for (const [id, at] of shownAt) if (t - at > STALE_AFTER_MS) toast.dismiss(id);
}
