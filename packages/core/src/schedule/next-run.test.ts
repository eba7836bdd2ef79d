import { describe, expect, it } from 'vitest';
import { describeSchedule, nextRunAt } from './next-run.ts';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('nextRunAt', () => {
  it('runs hourly at the chosen minute, strictly after the given instant', () => {
    const s = { every: 'hour', minute: 15 } as const;
    expect(iso(nextRunAt(s, 'UTC', t('2026-03-02T10:05:00Z')))).toBe('2026-03-02T10:15:00.000Z');
    expect(iso(nextRunAt(s, 'UTC', t('2026-03-02T10:15:00Z')))).toBe('2026-03-02T11:15:00.000Z');
    expect(iso(nextRunAt(s, 'UTC', t('2026-03-02T23:20:00Z')))).toBe('2026-03-03T00:15:00.000Z');
  });

  it('reads the minute in zones with half-hour offsets', () => {
    // India is UTC+05:30: :00 local is :30 UTC.
    const s = { every: 'hour', minute: 0 } as const;
    expect(iso(nextRunAt(s, 'Asia/Kolkata', t('2026-03-02T10:05:00Z')))).toBe('2026-03-02T10:30:00.000Z');
  });

  it('runs daily at HH:MM in the owner’s zone, today or tomorrow', () => {
    const s = { every: 'day', time: '08:00' } as const;
    // 08:00 in New York in winter is 13:00 UTC.
    expect(iso(nextRunAt(s, 'America/New_York', t('2026-01-10T12:00:00Z')))).toBe('2026-01-10T13:00:00.000Z');
    expect(iso(nextRunAt(s, 'America/New_York', t('2026-01-10T13:00:00Z')))).toBe('2026-01-11T13:00:00.000Z');
  });

  it('keeps the wall time across a daylight-saving change', () => {
    const s = { every: 'day', time: '08:00' } as const;
    // Berlin moves to summer time on 2026-03-29: 08:00 is 07:00 UTC before and 06:00 UTC after.
    expect(iso(nextRunAt(s, 'Europe/Berlin', t('2026-03-28T07:00:00Z')))).toBe('2026-03-29T06:00:00.000Z');
    // A time that does not exist that night (02:30) runs at 03:30 summer time, once.
    const gap = { every: 'day', time: '02:30' } as const;
    expect(iso(nextRunAt(gap, 'Europe/Berlin', t('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('runs weekly on the chosen weekday', () => {
    // 2026-03-04 is a Wednesday.
    const monday = { every: 'week', weekday: 1, time: '09:30' } as const;
    expect(iso(nextRunAt(monday, 'UTC', t('2026-03-04T12:00:00Z')))).toBe('2026-03-09T09:30:00.000Z');
    const wednesday = { every: 'week', weekday: 3, time: '09:30' } as const;
    expect(iso(nextRunAt(wednesday, 'UTC', t('2026-03-04T09:00:00Z')))).toBe('2026-03-04T09:30:00.000Z');
    expect(iso(nextRunAt(wednesday, 'UTC', t('2026-03-04T09:30:00Z')))).toBe('2026-03-11T09:30:00.000Z');
  });

  it('describes schedules the way the list shows them', () => {
    expect(describeSchedule({ every: 'hour', minute: 5 })).toBe('Every hour at :05');
    expect(describeSchedule({ every: 'day', time: '08:00' })).toBe('Daily at 08:00');
    expect(describeSchedule({ every: 'week', weekday: 1, time: '08:00' })).toBe('Weekly on Monday at 08:00');
  });
});
