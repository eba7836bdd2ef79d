import { describe, expect, it } from 'vitest';
import { parseExtinfo } from './extinfo.ts';

const SIXTEEN = ['a2', 'com.x', '1.0', '1.0 long', '14', 'Pixel 8', 'en_US', 'GMT+1', 'Vodafone'];
const full = [...SIXTEEN, '1080', '2400', '2.6', '8', '128', '64', 'Europe/Berlin'];

describe('parseExtinfo', () => {
  it.each([
    ['commas', full.join(',')],
    ['pipes', full.join('|')],
    ['a JSON array', JSON.stringify(full)],
    ['spaces around values', full.join(' , ')],
  ])('reads 16 values separated by %s', (_, raw) =>
    expect(parseExtinfo(raw)).toEqual({ ok: true, value: JSON.stringify(full) }),
  );

  it('keeps empty values in their places, and a comma inside a value written with pipes', () => {
    const values = ['i2', 'com.x', '', '', '17.4', 'iPhone5,1', ...Array<string>(10).fill('')];
    expect(parseExtinfo(values.join('|'))).toEqual({ ok: true, value: JSON.stringify(values) });
  });

  it('lowercases the version and turns numbers in a JSON array into text', () => {
    const r = parseExtinfo(JSON.stringify(['A2', 'com.x', 1, '1', '14', ...Array<number>(11).fill(0)]));
    expect(r.ok && JSON.parse(r.value).slice(0, 3)).toEqual(['a2', 'com.x', '1']);
  });

  it.each([
    ['a2,com.x,1', /^must have 16 values .* not 3;/],
    [[...full, 'x'].join(','), /not 17;/],
    [
      ['x2', ...full.slice(1)].join(','),
      /^must start with its version, a2 \(Android\) or i2 \(iOS\), not "x2"$/,
    ],
    [full.map((v, i) => (i === 4 ? '' : v)).join(','), /^needs the OS version as its fifth value$/],
    ['[1, 2', /^is not a valid JSON array$/],
    ['[{"a":1}]', /^must be a list of text values$/],
  ])('refuses %j', (raw, reason) => {
    const r = parseExtinfo(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });
});
