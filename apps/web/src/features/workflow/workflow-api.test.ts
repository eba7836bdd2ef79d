import { describe, expect, it } from 'vitest';
import { routeForStatus } from './workflow-api.ts';

describe('routeForStatus (spec §4)', () => {
  it.each([
    ['uploaded', '/map-columns?fileId=f'],
    ['mapped', '/verify-data?fileId=f'],
    ['validated', '/submit?fileId=f'],
    ['prepared', '/submit?fileId=f'],
    ['submitted', '/summary?fileId=f'],
    ['weird', '/map-columns?fileId=f'],
  ])('%s → %s', (status, route) => expect(routeForStatus(status, 'f')).toBe(route));
});
