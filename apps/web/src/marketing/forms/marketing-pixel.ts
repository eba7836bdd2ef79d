declare global {
  interface Window {
    fbq?: ((...args: unknown[]) => void) & { queue?: unknown[][]; loaded?: boolean };
  }
}

/** Loads the optional marketing Meta Pixel (when configured) and fires Lead; no pixel, no request. */
export function firePixelLead(pixelId: string | null): void {
  if (!pixelId || typeof window === 'undefined') return;
  if (!window.fbq) {
    const q: unknown[][] = [];
    const fbq = ((...args: unknown[]) => void q.push(args)) as NonNullable<Window['fbq']>;
    fbq.queue = q;
    window.fbq = fbq;
    const s = document.createElement('script');
    s.async = true;
    s.src = 'https://connect.facebook.net/en_US/fbevents.js';
    document.head.appendChild(s);
    window.fbq('init', pixelId);
  }
  window.fbq('track', 'Lead');
}
