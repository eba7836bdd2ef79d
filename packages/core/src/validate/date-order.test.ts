import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import type { DateOrder } from './event-time.ts';
import { createRowValidator } from './row-validator.ts';

const NOW = Date.UTC(2026, 10, 22, 12) / 1000;

function validate(
  when: string,
  dob: string,
  dateOrder: DateOrder,
  dateOrders: Partial<Record<string, DateOrder>>,
) {
  return createRowValidator({
    headers: ['email', 'When', 'DOB'],
    mappings: { email: 'email', When: 'event_time', DOB: 'db' },
    hardcoded: { event_name: 'Lead', action_source: 'physical_store' },
    settings: { ...DEFAULT_FILE_SETTINGS, dateOrder },
    dateOrders,
    now: NOW,
  })(['ann@example.com', when, dob], 2).effectiveRow;
}
const noon = (y: number, m: number, d: number) => String(Date.UTC(y, m - 1, d, 12) / 1000);

describe('each date column follows its own order', () => {
  it.each([
    // event_time evidence, db evidence, user setting → event_time, db
    [{ When: 'DMY' }, 'MDY', noon(2026, 11, 3), '19900203'],
    [{ When: 'DMY' }, 'DMY', noon(2026, 11, 3), '19900302'],
    [{ When: 'MDY' }, 'DMY', noon(2026, 3, 11), '19900302'],
    [{ When: 'DMY', DOB: 'MDY' }, 'DMY', noon(2026, 11, 3), '19900203'],
    [{ DOB: 'DMY' }, 'MDY', noon(2026, 3, 11), '19900302'],
    [{}, 'DMY', noon(2026, 11, 3), '19900302'],
  ] as const)('%j with setting %s', (dateOrders, setting, eventTime, db) => {
    const eff = validate('03/11/2026', '02/03/1990', setting, dateOrders);
    expect([eff.event_time, eff.db]).toEqual([eventTime, db]);
  });
});
