import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { isRefundRow } from './refunds.ts';
import { createRowValidator } from './row-validator.ts';

describe('isRefundRow', () => {
  it('is a Purchase whose value is below zero', () => {
    expect(isRefundRow({ event_name: 'Purchase', value: '-12.5' })).toBe(true);
    expect(isRefundRow({ event_name: 'Purchase', value: '12.5' })).toBe(false);
    expect(isRefundRow({ event_name: 'Purchase', value: '0' })).toBe(false);
    expect(isRefundRow({ event_name: 'Purchase', value: '-0' })).toBe(false);
    expect(isRefundRow({ event_name: 'Purchase' })).toBe(false);
    // Another event's negative value is not a refund of a purchase.
    expect(isRefundRow({ event_name: 'Lead', value: '-5' })).toBe(false);
  });

  it('sees the value as validation reads it ("-$1,200.00")', () => {
    const validate = createRowValidator({
      headers: ['Email', 'Event', 'When', 'Source', 'Value', 'Currency'],
      mappings: {
        Email: 'email',
        Event: 'event_name',
        When: 'event_time',
        Source: 'action_source',
        Value: 'value',
        Currency: 'currency',
      },
      hardcoded: {},
      settings: DEFAULT_FILE_SETTINGS,
      now: Date.UTC(2026, 10, 22) / 1000,
    });
    const row = (value: string) =>
      validate(['a@b.co', 'purchase', '2026-11-21T10:00:00Z', 'physical_store', value, 'USD'], 2);
    const refund = row('-$1,200.00');
    expect(refund.errors).toEqual([]);
    expect(isRefundRow(refund.effectiveRow)).toBe(true);
    expect(isRefundRow(row('1200').effectiveRow)).toBe(false);
  });
});
