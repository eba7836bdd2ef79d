import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Pixel from './marketing-pixel.ts';

let mod: typeof Pixel;
beforeEach(async () => {
  vi.resetModules();
  delete window.fbq;
  delete window._fbq;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  mod = await import('./marketing-pixel.ts');
});

const fbeventsScripts = () =>
  [...document.querySelectorAll('script')].filter((s) => s.src.includes('connect.facebook.net'));

describe('marketing pixel', () => {
  it('does nothing without a configured pixel id', () => {
    mod.firePixelLead(null);
    mod.firePixelLead('');
    expect(window.fbq).toBeUndefined();
    expect(fbeventsScripts()).toHaveLength(0);
  });

  it("installs Meta's stub (queue, push, loaded, version 2.0), loads fbevents.js once and queues init then Lead", () => {
    mod.firePixelLead('123456');
    mod.firePixelLead('123456');
    const fbq = window.fbq!;
    expect(fbq.loaded).toBe(true);
    expect(fbq.version).toBe('2.0');
    expect(fbq.push).toBe(fbq);
    expect(window._fbq).toBe(fbq);
    expect(fbq.queue).toEqual([
      ['init', '123456'],
      ['track', 'Lead'],
      ['track', 'Lead'],
    ]);
    expect(fbeventsScripts().map((s) => [s.src, s.async])).toEqual([
      ['https://connect.facebook.net/en_US/fbevents.js', true],
    ]);
  });

  it('hands calls to fbevents.js once it has loaded (callMethod)', () => {
    mod.firePixelLead('42');
    const calls: unknown[][] = [];
    window.fbq!.callMethod = (...args) => void calls.push(args);
    mod.firePixelLead('42');
    expect(calls).toEqual([['track', 'Lead']]);
  });
});
