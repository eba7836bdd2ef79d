import { ANALYTICS_LIMITS, type AnalyticsEventName } from '@backsignal/contracts/public';

/**
 * First-party analytics: events are queued and sent in batches to POST /api/analytics (same origin, no
 * credentials), flushed every few seconds and when the page is hidden. Batches follow the server's limits
 * (ANALYTICS_LIMITS: events per post, properties per event, key and text lengths): longer values are cut
 * here, since one bad value would get the whole batch refused, and events past a batch go in the next one.
 */
type Props = Record<string, string | number | boolean | null | undefined>;
interface QueuedEvent {
  name: string;
  props: Record<string, string | number | boolean | null>;
  path: string;
  ts: number;
}

export const MAX_BATCH = ANALYTICS_LIMITS.eventsPerPost;
const MAX_KEY = ANALYTICS_LIMITS.keyLength;
const MAX_TEXT = ANALYTICS_LIMITS.textLength;
const MAX_PROPS = ANALYTICS_LIMITS.propsPerEvent;
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
    if (Object.keys(out).length >= MAX_PROPS) break;
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

export function track(name: AnalyticsEventName, props: Props = {}): void {
  if (typeof window === 'undefined') return;
  queue.push({
    name,
    props: clean(props),
    path: clip(window.location.pathname, ANALYTICS_LIMITS.pathLength),
    ts: Date.now(),
  });
  schedule(FLUSH_MS);
}
