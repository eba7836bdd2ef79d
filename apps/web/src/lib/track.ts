/**
 * First-party analytics: events are queued and sent in batches to POST /api/analytics (no credentials),
 * flushed every few seconds and when the page is hidden.
 */
type Props = Record<string, string | number | boolean | null | undefined>;
interface QueuedEvent {
  name: string;
  props: Props;
  path: string;
  ts: number;
}

const queue: QueuedEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  timer = undefined;
  if (!queue.length || typeof window === 'undefined') return;
  const body = JSON.stringify({ events: queue.splice(0, 50) });
  const blob = new Blob([body], { type: 'application/json' });
  if (!navigator.sendBeacon?.('/api/analytics', blob)) {
    void fetch('/api/analytics', { method: 'POST', body, headers: { 'content-type': 'application/json' }, credentials: 'omit', keepalive: true }).catch(() => {});
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
}

export function track(name: string, props: Props = {}): void {
  if (typeof window === 'undefined') return;
  queue.push({ name, props, path: window.location.pathname, ts: Date.now() });
  timer ??= setTimeout(flush, 3000);
}
