import { describe, expect, it } from 'vitest';
import { ValueMemo } from './value-memo.ts';

describe('ValueMemo', () => {
  it('answers what was set, for an equal string that is not the same object', () => {
    const memo = new ValueMemo<string>();
    memo.set('Germany', 'de');
    expect(memo.get(['Ger', 'many'].join(''))).toBe('de');
    expect(memo.get('France')).toBeUndefined();
  });

  it('keeps a remembered null apart from a value never seen', () => {
    const memo = new ValueMemo<string | null>();
    memo.set('nowhere', null);
    expect(memo.get('nowhere')).toBeNull();
    expect(memo.get('somewhere')).toBeUndefined();
  });

  it('answers right when values share a place in the front table', () => {
    const memo = new ValueMemo<number>();
    // Same length and first, middle and last characters: the same front slot.
    const values = ['axya', 'abya', 'azya', 'a2ya'];
    values.forEach((v, i) => memo.set(v, i));
    for (let round = 0; round < 3; round++) values.forEach((v, i) => expect(memo.get(v)).toBe(i));
  });

  it('stays bounded: after 10,000 values the oldest are forgotten', () => {
    const memo = new ValueMemo<number>();
    for (let i = 0; i <= 10_000; i++) memo.set(`value ${i} of many`, i);
    expect(memo.get('value 10000 of many')).toBe(10_000);
    expect(memo.get('value 17 of many')).toBeUndefined();
  });
});
