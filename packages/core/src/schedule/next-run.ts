import { formatter, zonedToEpochMs } from '../validate/zoned-time.ts';

/** When a source runs, in the owner's wall-clock time (weekday: 0 = Sunday … 6 = Saturday). */
export type SourceSchedule =
  | { every: 'hour'; minute: number }
  | { every: 'day'; time: string }
  | { every: 'week'; weekday: number; time: string };

function wallClock(zone: string, ms: number) {
  const parts = formatter(zone).formatToParts(ms);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour') };
}

const hm = (time: string) => time.split(':').map(Number) as [number, number];

/**
 * The first instant strictly after `afterMs` that the schedule names in `zone`. A wall time skipped by a
 * daylight-saving change runs at the same time written after the change, a repeated one at its first
 * occurrence (zonedToEpochMs' rule), so a schedule never skips a day and never runs twice for one.
 */
export function nextRunAt(schedule: SourceSchedule, zone: string, afterMs: number): number {
  const now = wallClock(zone, afterMs);
  const at = (dayOffset: number, h: number, mi: number) =>
    zonedToEpochMs(zone, now.y, now.m, now.d + dayOffset, h, mi, 0);
  if (schedule.every === 'hour') {
    // Hour by hour from the current wall hour; a zone's offset changes by at most a few hours at once.
    for (let k = 0; k < 4; k++) {
      const t = at(0, now.h + k, schedule.minute);
      if (t > afterMs) return t;
    }
    return afterMs + 3_600_000;
  }
  const [h, mi] = hm(schedule.time);
  if (schedule.every === 'day') {
    const today = at(0, h, mi);
    return today > afterMs ? today : at(1, h, mi);
  }
  const weekdayNow = new Date(Date.UTC(now.y, now.m - 1, now.d)).getUTCDay();
  const delta = (schedule.weekday - weekdayNow + 7) % 7;
  const first = at(delta, h, mi);
  return first > afterMs ? first : at(delta + 7, h, mi);
}

/** How a schedule reads in the list ('Every hour at :15', 'Daily at 08:00', 'Weekly on Monday at 08:00'). */
export function describeSchedule(schedule: SourceSchedule): string {
  if (schedule.every === 'hour') return `Every hour at :${String(schedule.minute).padStart(2, '0')}`;
  if (schedule.every === 'day') return `Daily at ${schedule.time}`;
  const day = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][
    schedule.weekday
  ];
  return `Weekly on ${day} at ${schedule.time}`;
}
