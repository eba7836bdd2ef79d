/**
 * First-party analytics: events are queued and sent in batches to POST /api/analytics (no credentials),
 * flushed every few seconds and when the page is hidden. Batches follow the server's limits (50 events,
 * keys up to 50 characters, text up to 300): longer values are cut here, since one bad value would get the
 * whole batch refused, and events past 50 go in the next batch.
 */
type Props = Record<string, string | number | boolean | null | undefined>;
interface QueuedEvent {
  name: string;
  props: Record<string, string | number | boolean | null>;
  path: string;
  ts: number;
}

export const MAX_BATCH = 50;
const MAX_KEY = 50;
const MAX_TEXT = 300;
const FLUSH_MS = 3000;
/** The rest of a queue longer than one batch goes shortly after. */
const NEXT_BATCH_MS = 200;

const queue: QueuedEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

function clean(props: Props): QueuedEvent['props'] {
  const out: QueuedEvent['props'] = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    out[clip(k, MAX_KEY)] = typeof v === 'string' ? clip(v, MAX_TEXT) : v;
  }
  return out;
}

function send(events: QueuedEvent[]) {
  const body = JSON.stringify({ events });
  const blob = new Blob([body], { type: 'application/json' });
  if (!navigator.sendBeacon?.('/api/analytics', blob)) {
    void fetch('/api/analytics', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      credentials: 'omit',
      keepalive: true,
    }).catch(() => {});
  }
}

function schedule(ms: number) {
  timer ??= setTimeout(() => flush(false), ms);
}

/** Sends one batch and schedules the rest, or (when the page is going away) everything at once. */
export function flush(all: boolean): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (typeof window === 'undefined') return;
  do {
    if (!queue.length) return;
    send(queue.splice(0, MAX_BATCH));
  } while (all);
  if (queue.length) schedule(NEXT_BATCH_MS);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => flush(true));
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush(true));
}

export function track(name: string, props: Props = {}): void {
  if (typeof window === 'undefined') return;
  queue.push({ name, props: clean(props), path: clip(window.location.pathname, MAX_TEXT), ts: Date.now() });
  schedule(FLUSH_MS);
}
