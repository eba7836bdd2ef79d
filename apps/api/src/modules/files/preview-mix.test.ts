import { describe, expect, it } from 'vitest';
import { previewMix } from './preview-mix.ts';

describe('previewMix', () => {
  it('keeps severity order and gives every kind a share of the slots', () => {
    const errors = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10'];
    const dropped = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10'];
    const corrected = ['c1'];
    expect(previewMix([errors, dropped, corrected], 10)).toEqual([
      'e1',
      'e2',
      'e3',
      'e4',
      'e5',
      'd1',
      'd2',
      'd3',
      'd4',
      'c1',
    ]);
  });

  it('fills the limit from whatever kinds there are', () => {
    expect(previewMix([[], ['d1', 'd2'], ['c1', 'c2', 'c3']], 4)).toEqual(['d1', 'd2', 'c1', 'c2']);
    expect(previewMix([[], [], []], 10)).toEqual([]);
    expect(previewMix([['e1']], 0)).toEqual([]);
  });
});
