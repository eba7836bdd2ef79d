/** Meta's fbq stub, as its official base code builds it: calls queue until fbevents.js takes over. */
export type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[][];
  push: Fbq;
  loaded: boolean;
  version: string;
};

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

const FBEVENTS = 'https://connect.facebook.net/en_US/fbevents.js';
const initialised = new Set<string>();

/** Installs the stub and loads fbevents.js once, like the official snippet (which returns if fbq exists). */
function bootstrap(): Fbq {
  if (window.fbq) return window.fbq;
  const fbq = ((...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  }) as Fbq;
  window._fbq ??= fbq;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  window.fbq = fbq;
  const s = document.createElement('script');
  s.async = true;
  s.src = FBEVENTS;
  document.head.appendChild(s);
  return fbq;
}

/** Fires the optional marketing Meta Pixel's Lead event: only when a pixel id is configured, else nothing at all. */
export function firePixelLead(pixelId: string | null): void {
  if (!pixelId || typeof window === 'undefined') return;
  const fbq = bootstrap();
  if (!initialised.has(pixelId)) {
    initialised.add(pixelId);
    fbq('init', pixelId);
  }
  fbq('track', 'Lead');
}
