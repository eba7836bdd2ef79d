import { describe, expect, it } from 'vitest';
import { apiQuery, viewFromParams, viewParams } from './insights-api.ts';

describe('the Insights view in the URL', () => {
  it('round-trips every filter, leaving the defaults out of the address', () => {
    const view = viewFromParams(new URLSearchParams('range=7&pixel=123&source=manual&stack=source'));
    expect(view).toEqual({ range: '7', from: '', to: '', pixel: '123', source: 'manual', stack: 'source' });
    expect(viewParams(view).toString()).toBe('range=7&pixel=123&source=manual&stack=source');
    expect(viewParams(viewFromParams(new URLSearchParams())).toString()).toBe('');
  });

  it('falls back to 30 days for an unknown range, or chosen dates without both ends', () => {
    expect(viewFromParams(new URLSearchParams('range=12')).range).toBe('30');
    expect(viewFromParams(new URLSearchParams('range=custom&from=2026-01-01')).range).toBe('30');
    const custom = viewFromParams(new URLSearchParams('range=custom&from=2026-01-01&to=2026-01-31'));
    expect(viewParams(custom).toString()).toBe('range=custom&from=2026-01-01&to=2026-01-31');
  });

  it('asks the API for the days up to today (UTC), both ends included', () => {
    const now = Date.parse('2026-03-10T23:30:00Z');
    expect(apiQuery(viewFromParams(new URLSearchParams('range=7')), now)).toBe(
      'from=2026-03-04&to=2026-03-10&stack=pixel',
    );
    expect(
      apiQuery(
        viewFromParams(new URLSearchParams('range=custom&from=2026-01-01&to=2026-01-31&pixel=9')),
        now,
      ),
    ).toBe('from=2026-01-01&to=2026-01-31&pixel=9&stack=pixel');
  });
});
