import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectDateOrder, parseEventTime, readEventTime } from './event-time.ts';

const utc = (...a: [number, number, number, number?, number?, number?]) =>
  Date.UTC(a[0], a[1] - 1, a[2], a[3] ?? 0, a[4] ?? 0, a[5] ?? 0) / 1000;
const seconds = (raw: string, zone = 'UTC', order: 'MDY' | 'DMY' = 'MDY') => {
  const r = parseEventTime(raw, zone, order);
  return r.ok ? r.seconds : null;
};

describe('parseEventTime', () => {
  it.each([
    ['2026-11-21T10:00:00Z', utc(2026, 11, 21, 10)],
    ['2026-11-21T10:00:00.123Z', utc(2026, 11, 21, 10)],
    ['2026-11-21T10:00:00+02:00', utc(2026, 11, 21, 8)],
    ['2026-11-21T10:00:00-0500', utc(2026, 11, 21, 15)],
    ['2026-11-21 10:00', utc(2026, 11, 21, 10)],
    ['2026-11-21', utc(2026, 11, 21, 12)],
    ['11/21/2026', utc(2026, 11, 21, 12)],
    ['21/11/2026', utc(2026, 11, 21, 12)],
    ['21.11.2026', utc(2026, 11, 21, 12)],
    ['11/21/2026 3:30 PM', utc(2026, 11, 21, 15, 30)],
    ['11/21/26 15:30', utc(2026, 11, 21, 15, 30)],
    ['1795348800', 1795348800],
    ['1795348800000', 1795348800],
    ['46347', utc(2026, 11, 21, 12)],
    ['46347.5', utc(2026, 11, 21, 12)],
    // whole numbers as spreadsheets write them, and Unix times with fractions of a second
    ['1795348800.0', 1795348800],
    ['1795348800.789', 1795348800],
    ['1795348800000.0', 1795348800],
    // ISO 8601's basic format
    ['20261121', utc(2026, 11, 21, 12)],
    ['20261121T100000Z', utc(2026, 11, 21, 10)],
    ['20261121T100000.5Z', utc(2026, 11, 21, 10)],
    ['20261121T1000+0200', utc(2026, 11, 21, 8)],
    ['20261121T1000', utc(2026, 11, 21, 10)],
  ])('%s', (raw, expected) => expect(seconds(raw)).toBe(expected));

  it('says what it did with a fraction of a second', () => {
    expect(parseEventTime('1795348800.0', 'UTC', 'MDY')).toMatchObject({
      note: 'Converted event_time "1795348800.0" to whole seconds',
    });
    expect(parseEventTime('1795348800000.0', 'UTC', 'MDY')).toMatchObject({
      note: 'Converted event_time from milliseconds to seconds',
    });
  });

  it('reads ambiguous slash dates by the file order', () => {
    expect(seconds('03/04/2026', 'UTC', 'MDY')).toBe(utc(2026, 3, 4, 12));
    expect(seconds('03/04/2026', 'UTC', 'DMY')).toBe(utc(2026, 4, 3, 12));
  });

  it('applies the file time zone with daylight saving', () => {
    expect(seconds('2026-07-04 12:00', 'America/New_York')).toBe(utc(2026, 7, 4, 16));
    expect(seconds('2026-01-04 12:00', 'America/New_York')).toBe(utc(2026, 1, 4, 17));
    expect(seconds('2026-07-04 12:00', 'Europe/Berlin')).toBe(utc(2026, 7, 4, 10));
    expect(seconds('2026-07-04T12:00:00Z', 'America/New_York')).toBe(utc(2026, 7, 4, 12));
  });

  it('says it converted milliseconds', () => {
    expect(parseEventTime('1795348800000', 'UTC', 'MDY')).toMatchObject({
      note: 'Converted event_time from milliseconds to seconds',
    });
  });

  it.each([
    '',
    'yesterday',
    '2026-02-30',
    '13/13/2026',
    '2026-11-21T25:00:00',
    '12',
    'NaN',
    '20261321',
    '20261121T2500Z',
    '12345678.5',
  ])('%j is unreadable', (raw) => expect(parseEventTime(raw, 'UTC', 'MDY').ok).toBe(false));

  it('reads a UTC ISO time ending in Z as the same time ending in +00:00', () => {
    const n = (digits: number, max: number) =>
      fc.integer({ min: 0, max }).map((x) => String(x).padStart(digits, '0'));
    const iso = fc
      .tuple(
        n(4, 9999),
        n(2, 19),
        n(2, 39),
        fc.constantFrom('T', 't', ' '),
        n(2, 29),
        n(2, 69),
        n(2, 69),
        fc.constantFrom('', '.000', ',5', '.123456'),
      )
      .map(([y, mo, d, t, h, mi, s, frac]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${frac}`);
    fc.assert(
      fc.property(
        iso,
        fc.constantFrom('Z', 'z'),
        fc.constantFrom('UTC', 'America/New_York'),
        (v, z, zone) => {
          expect(parseEventTime(`${v}${z}`, zone, 'MDY')).toEqual(parseEventTime(`${v}+00:00`, zone, 'MDY'));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads "11/21/2026 0:31" as the same time written with two spaces (the general path)', () => {
    // Mostly real days, months and times, with leading zeros or not; sometimes any one or two digits.
    const part = (max: number) =>
      fc.oneof(
        fc.integer({ min: 0, max }).map(String),
        fc.integer({ min: 0, max }).map((x) => String(x).padStart(2, '0')),
        fc.stringMatching(/^\d{1,2}$/),
      );
    const two = fc.stringMatching(/^\d{2}$/);
    const slash = fc
      .tuple(part(13), part(32), fc.integer({ min: 1000, max: 9999 }), part(24), two, fc.option(two))
      .map(([x, b, y, h, mi, s]) => [`${x}/${b}/${y}`, `${h}:${mi}${s === null ? '' : `:${s}`}`]);
    fc.assert(
      fc.property(
        slash,
        fc.constantFrom('UTC', 'America/New_York'),
        fc.constantFrom<'MDY' | 'DMY'>('MDY', 'DMY'),
        ([date, time], zone, order) => {
          expect(parseEventTime(`${date} ${time}`, zone, order)).toEqual(
            parseEventTime(`${date}  ${time}`, zone, order),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  // The shortcuts for the usual shapes (UTC_ISO, milliseconds, SLASH_TIME, each chosen by length) against the
  // general path alone: values near each shape, with a character changed, dropped or added now and then.
  const near = (shape: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 3, arbitrary: shape },
      fc
        .tuple(
          shape,
          fc.nat(),
          fc.constantFrom('', '0', '9', '-', ':', '.', ',', 'T', 't', ' ', 'Z', 'z', '/', '+', 'é'),
        )
        .map(([v, at, c]) => {
          const i = at % (v.length + 1);
          return `${v.slice(0, i)}${c}${v.slice(i + 1)}`;
        }),
      fc.tuple(shape, fc.nat(), fc.constantFrom('0', '5', ' ', 'Z', '.')).map(([v, at, c]) => {
        const i = at % (v.length + 1);
        return `${v.slice(0, i)}${c}${v.slice(i)}`;
      }),
    );
  const digits = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '9'), minLength: min, maxLength: max });
  const utcIsoLike = fc
    .tuple(
      digits(4, 4),
      digits(2, 2),
      digits(2, 2),
      fc.constantFrom('T', 't', ' '),
      digits(2, 2),
      digits(2, 2),
      digits(2, 2),
      fc.constantFrom('', '.000', ',5', '.', '.123456', '.1a'),
      fc.constantFrom('Z', 'z', '', '+00:00'),
    )
    .map(([y, mo, d, t, h, mi, s, frac, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${frac}${z}`);
  const slashLike = fc
    .tuple(digits(1, 2), digits(1, 2), digits(4, 4), digits(1, 2), digits(2, 2), fc.option(digits(2, 2)))
    .map(([x, b, y, h, mi, s]) => `${x}/${b}/${y} ${h}:${mi}${s === null ? '' : `:${s}`}`);
  const numberLike = fc.oneof(
    digits(1, 15),
    fc.tuple(digits(1, 6), digits(1, 3)).map(([a, b]) => `${a}.${b}`),
    fc.integer({ min: 1_000_000_000_000, max: 9_999_999_999_999 }).map(String),
  );

  it('reads "2026-11-20T09:02:52.000Z" as the general path does', () => {
    fc.assert(
      fc.property(near(utcIsoLike), fc.constantFrom('UTC', 'America/New_York'), (v, zone) => {
        expect(parseEventTime(v, zone, 'MDY')).toEqual(readEventTime(v, zone, 'MDY'));
      }),
      { numRuns: 2500 },
    );
  });

  it('reads Unix seconds, milliseconds and other numbers as the general path does', () => {
    fc.assert(
      fc.property(near(numberLike), (v) => {
        expect(parseEventTime(v, 'Asia/Kolkata', 'DMY')).toEqual(readEventTime(v, 'Asia/Kolkata', 'DMY'));
      }),
      { numRuns: 4000 },
    );
  });

  it('reads "11/21/2026 20:12" and any other value as the general path does', () => {
    fc.assert(
      fc.property(
        fc.oneof(near(slashLike), fc.string({ maxLength: 30 })),
        fc.constantFrom('UTC', 'America/New_York'),
        fc.constantFrom<'MDY' | 'DMY'>('MDY', 'DMY'),
        (v, zone, order) => {
          expect(parseEventTime(v, zone, order)).toEqual(readEventTime(v, zone, order));
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), (s) => void parseEventTime(s, 'Europe/Paris', 'DMY')),
      { numRuns: 500 },
    );
  });
});

describe('parseEventTime with month names', () => {
  // The server's own zone must never leak into the result: run these under a zone far from UTC.
  const savedTz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it.each([
    ['3 Mar 2026 10:00', 'UTC', utc(2026, 3, 3, 10)],
    ['3 Mar 2026 10:00', 'America/New_York', utc(2026, 3, 3, 15)],
    ['3-Mar-2026', 'UTC', utc(2026, 3, 3, 12)],
    ['03 March 2026, 10:00:30', 'Europe/Berlin', utc(2026, 3, 3, 9, 0, 30)],
    ['Mar 3, 2026', 'UTC', utc(2026, 3, 3, 12)],
    ['Mar 3, 2026', 'Asia/Tokyo', utc(2026, 3, 3, 3)],
    ['March 3 2026 10:00 PM', 'UTC', utc(2026, 3, 3, 22)],
    ['March 3rd, 2026 at 9:15 am', 'UTC', utc(2026, 3, 3, 9, 15)],
    ['Tue, 3 Mar 2026 10:00:00 +0100', 'America/New_York', utc(2026, 3, 3, 9)],
    ['Tue, 03 Mar 2026 10:00:00 GMT', 'America/New_York', utc(2026, 3, 3, 10)],
    ['Sun Feb 16 1997', 'UTC', utc(1997, 2, 16, 12)],
  ])('%s in %s', (raw, zone, expected) => expect(seconds(raw, zone)).toBe(expected));

  it.each([
    'TBD 2026',
    'ORD-2026',
    'abc 2026',
    'order 1234',
    'Mar 2026',
    '31 Feb 2026',
    'Mar 3, 2026 13:00 PM',
    'Foo 3 2026',
    '3 Mar 2026 24:00',
  ])('%j is an error with a clear message', (raw) => {
    const r = parseEventTime(raw, 'UTC', 'MDY');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/is not a|invalid/);
  });
});

describe('detectDateOrder', () => {
  it('decides from unambiguous values', () => {
    expect(detectDateOrder(['01/02/2026', '25/02/2026'])).toBe('DMY');
    expect(detectDateOrder(['01/02/2026', '02/25/2026'])).toBe('MDY');
    expect(detectDateOrder(['01/02/2026', '03/04/2026'])).toBeNull();
    expect(detectDateOrder(['25/02/2026', '02/25/2026'])).toBeNull();
  });
});
