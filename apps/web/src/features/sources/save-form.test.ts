import { describe, expect, it } from 'vitest';
import { problemLines, saveProblems } from './save-form.ts';

const ok = {
  name: 'Shop orders',
  pixelAccountId: 'a1',
  accountIds: ['a1'],
  schedule: { every: 'day', time: '08:00' } as const,
};

describe('what "Save source" needs', () => {
  it('needs nothing when the form is complete', () => {
    expect(saveProblems(ok)).toEqual({});
    expect(saveProblems({ ...ok, accountIds: undefined })).toEqual({});
    expect(saveProblems({ ...ok, schedule: { every: 'hour', minute: 5 } })).toEqual({});
  });

  it('names each missing or wrong field, in the order of the form', () => {
    const p = saveProblems({
      name: '  ',
      pixelAccountId: '',
      accountIds: [],
      schedule: { every: 'week', weekday: 1, time: '' },
    });
    expect(p).toEqual({
      name: 'Give the source a name.',
      pixelAccountId: 'Please select or save an account first',
      time: 'Enter the time of day as HH:MM, e.g. 08:00.',
    });
    expect(problemLines(p)).toEqual([
      'Name: Give the source a name.',
      'Pixel account: Please select or save an account first',
      'At (HH:MM): Enter the time of day as HH:MM, e.g. 08:00.',
    ]);
    expect(saveProblems({ ...ok, pixelAccountId: 'gone' }).pixelAccountId).toBe(
      'Choose the pixel account the rows go to.',
    );
  });
});
