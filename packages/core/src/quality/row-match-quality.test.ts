import { describe, expect, it } from 'vitest';
import { createMatchQualityTracker } from './match-quality.ts';
import { STRONG_IDENTIFIERS } from '../validate/identifiers.ts';
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
    // App and messaging files: their ids count, and nothing is missing for Meta.
    [{ madid: '38400000-8cf0-11bd-b23e-10b96e40000d', anon_id: 'a1' }, ['madid', 'anon_id'], 4, 'OK', false],
    [
      { ctwa_clid: 'ARAkLkA8rmlF', page_scoped_user_id: '5' },
      ['page_scoped_user_id', 'ctwa_clid'],
      7,
      'Great',
      false,
    ],
  ])('%j', (row, usable, score, label, rejected) => {
    const q = rowMatchQuality(row);
    expect(q).toMatchObject({ usable, score, label });
    expect(q.problem !== null).toBe(rejected);
  });

  it('weighs every identifier that matches on its own', () => {
    for (const key of STRONG_IDENTIFIERS) expect(rowMatchQuality({ [key]: 'x' }).usable).toEqual([key]);
  });

  it('agrees with the per-file score for a single row', () => {
    const row = { email: 'a@b.co', zip: '94025', first_name: 'ann' };
    const t = createMatchQualityTracker();
    t.add({ effectiveRow: row });
    expect(t.result().score).toBe(rowMatchQuality(row).score);
  });
});
