import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { parseEventTime, sendableSeconds } from './event-time.ts';
import { createRowValidator } from './row-validator.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

function check(when: string, zone: string, now: number) {
  const v = createRowValidator({
    headers: ['email', 'when'],
    mappings: { email: 'email', when: 'event_time' },
    hardcoded: { event_name: 'Lead', action_source: 'physical_store' },
    settings: { ...DEFAULT_FILE_SETTINGS, timeZone: zone },
    now,
  });
  return v(['ann@example.com', when], 2);
}

describe('a date-only event_time on its own day', () => {
  it.each([
    // value, file zone, now, expected event_time
    ['2026-11-22', 'UTC', '2026-11-22T09:00:00Z', '2026-11-22T09:00:00Z'],
    ['2026-11-22', 'UTC', '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z'],
    ['11/22/2026', 'UTC', '2026-11-22T11:59:00Z', '2026-11-22T11:59:00Z'],
    ['22 Nov 2026', 'UTC', '2026-11-22T06:00:00Z', '2026-11-22T06:00:00Z'],
    ['46348', 'UTC', '2026-11-22T06:00:00Z', '2026-11-22T06:00:00Z'],
    ['2026-11-22', 'America/New_York', '2026-11-22T14:00:00Z', '2026-11-22T14:00:00Z'],
    ['2026-11-22', 'Asia/Tokyo', '2026-11-21T16:00:00Z', '2026-11-21T16:00:00Z'],
    // After noon the usual noon stands.
    ['2026-11-22', 'UTC', '2026-11-22T13:00:00Z', '2026-11-22T12:00:00Z'],
    ['2026-11-21', 'UTC', '2026-11-22T09:00:00Z', '2026-11-21T12:00:00Z'],
  ])('%s in %s at %s is sent as %s, not judged in the future', (when, zone, now, expected) => {
    const r = check(when, zone, at(now));
    expect(r.errors).toEqual([]);
    expect(r.effectiveRow.event_time).toBe(String(at(expected)));
  });

  it.each([
    // A later day, or a written time of day, is still in the future.
    ['2026-11-23', 'UTC', '2026-11-22T09:00:00Z'],
    ['2026-11-22', 'Asia/Tokyo', '2026-11-21T14:00:00Z'],
    ['2026-11-22T10:00:00Z', 'UTC', '2026-11-22T09:00:00Z'],
    ['2026-11-22 10:00', 'UTC', '2026-11-22T09:00:00Z'],
  ])('%s in %s at %s is in the future', (when, zone, now) => {
    expect(check(when, zone, at(now)).errors.find((e) => e.field === 'event_time')?.message).toMatch(
      /in the future/,
    );
  });

  it('never moves a value with a time of day', () => {
    const t = parseEventTime('2026-11-22 10:00', 'UTC', 'MDY');
    if (!t.ok) throw new Error('unreadable');
    expect(sendableSeconds(t, at('2026-11-22T09:00:00Z'))).toBe(at('2026-11-22T10:00:00Z'));
  });
});
