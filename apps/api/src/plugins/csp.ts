import type { Config } from '../config/env.ts';

/** CSP for the SPA and the prerendered pages: own origin, plus Turnstile and the optional marketing pixel. */
export function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const turnstile = 'https://challenges.cloudflare.com';
  const pixel = config.marketingPixelId ? ['https://connect.facebook.net'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", turnstile, ...pixel],
    // react-toastify injects its stylesheet at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', ...(config.marketingPixelId ? ['https://www.facebook.com'] : [])],
    connectSrc: ["'self'", turnstile, ...(config.marketingPixelId ? ['https://www.facebook.com'] : [])],
    frameSrc: [turnstile],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: config.secureCookies ? [] : null,
  };
}
