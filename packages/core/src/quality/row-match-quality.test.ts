import { describe, expect, it } from 'vitest';
import { createMatchQualityTracker } from './match-quality.ts';
import { rowMatchQuality } from './row-match-quality.ts';

describe('rowMatchQuality', () => {
  it.each([
    [{ email: 'a@b.co', phone: '16505551212' }, ['email', 'phone'], 7, 'Great', false],
    [
      { phone: '16505551212', first_name: 'ann', zip: '94025', value: '12' },
      ['phone', 'first_name', 'zip'],
      4.1,
      'OK',
      false,
    ],
    [{ external_id: 'crm-1' }, ['external_id'], 1, 'Poor', false],
    [{ first_name: 'ann', gender: 'f' }, ['first_name', 'gender'], 0.8, 'Poor', true],
    [{ db: '19900131', client_user_agent: 'Mozilla' }, ['db', 'client_user_agent'], 0.9, 'Poor', true],
    [{}, [], 0, 'Poor', true],
    [
      { email: 'a@b.co', phone: '1', lead_id: '123456789012345', fbc: 'fb.1.1.x', external_id: 'x' },
      ['email', 'phone', 'lead_id', 'fbc', 'external_id'],
      10,
      'Great',
      false,
    ],
  ])('%j', (row, usable, score, label, rejected) => {
    const q = rowMatchQuality(row);
    expect(q).toMatchObject({ usable, score, label });
    expect(q.problem !== null).toBe(rejected);
  });

  it('agrees with the per-file score for a single row', () => {
    const row = { email: 'a@b.co', zip: '94025', first_name: 'ann' };
    const t = createMatchQualityTracker();
    t.add({ effectiveRow: row });
    expect(t.result().score).toBe(rowMatchQuality(row).score);
  });
});
