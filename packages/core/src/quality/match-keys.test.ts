import { describe, expect, it } from 'vitest';
import { MATCH_KEY_GROUPS, hasMatchGroup, matchCode, matchTenths } from './match-keys.ts';
import { rowMatchQuality } from './row-match-quality.ts';

const groups = (code: number) => MATCH_KEY_GROUPS.filter((_, i) => hasMatchGroup(code, i));

describe('matchCode', () => {
  it('names the groups an event carries and its estimate in tenths', () => {
    const row = { email: 'a@b.c', last_name: 'x', zip: '1000', country: 'us', event_name: 'Lead' };
    const code = matchCode(row);
    expect(groups(code)).toEqual(['email', 'name', 'address']);
    expect(matchTenths(code)).toBe(Math.round(rowMatchQuality(row).score * 10));
  });

  it('counts empty values as absent and caps the estimate at 10', () => {
    expect(matchCode({ email: '', phone: '' })).toBe(0);
    const full = matchCode({
      email: 'a',
      phone: 'b',
      external_id: 'c',
      fbc: 'd',
      fb_login_id: 'e',
      city: 'f',
    });
    expect(groups(full)).toEqual(['email', 'phone', 'address', 'external_id']);
    expect(matchTenths(full)).toBe(100);
  });

  it('leaves a country alone out of the address', () => {
    expect(groups(matchCode({ country: 'us', state: '' }))).toEqual([]);
  });
});
