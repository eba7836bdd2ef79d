import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INSIGHT_MATCH_KEYS } from '@backsignal/contracts';
import type { Db } from '../../db/db.ts';
import { openTestDb } from '../../../test/context.ts';
import { keyFalls } from './insights.key-falls.ts';
import { insightsRepo } from './insights.repo.ts';
import { spanOf } from './insights-span.ts';

/**
 * The drop note's numbers were first worked out in one SQL statement (below, as it was); keyFalls works them out
 * from keySums' few rows. Both must find the same falls on any counters.
 */
const KEY_SUMS = INSIGHT_MATCH_KEYS.map((k) => `sum(c.with_${k}) as ${k}`).join(', ');
const REFERENCE = `with keyed as (
   select c.day, coalesce(c.source_id::text, 'manual') as source, sum(c.keyed) as keyed, ${KEY_SUMS}
     from insight_days c where c.workspace_id = $1 and c.day between $2::date and $3::date and c.keyed > 0
    group by 1, 2),
 grid as (
   select k.day, k.source, m.match_key, k.keyed, m.events
     from keyed k cross join lateral (values ('email', k.email), ('phone', k.phone), ('name', k.name),
       ('address', k.address), ('external_id', k.external_id)) as m (match_key, events)),
 before as (
   select source, match_key, sum(keyed) as keyed, sum(events) as events
     from grid where day < $4::date group by source, match_key),
 marked as (
   select g.*, b.keyed as keyed_before, b.events as before,
          g.events * 2 * b.keyed < g.keyed * b.events as low
     from grid g join before b on b.source = g.source and b.match_key = g.match_key
    where g.day >= $4::date),
 fell as (
   select source, match_key, min(day) filter (where low and day > coalesce(last_high, $4::date - 1)) as low_since
     from (select m.*, max(day) filter (where not low) over (partition by source, match_key) as last_high
             from marked m) x
    group by source, match_key)
 select f.source, f.match_key as key, to_char(f.low_since, 'YYYY-MM-DD') as "lowSince",
        min(m.keyed_before)::float8 as "keyedBefore", min(m.before)::float8 as before,
        sum(m.keyed)::float8 as "keyedAfter", sum(m.events)::float8 as after
   from fell f join marked m on m.source = f.source and m.match_key = f.match_key and m.day >= f.low_since
  group by f.source, f.match_key, f.low_since`;

let db: Db;
let drop: () => Promise<void>;
const workspaceId = randomUUID();
const sources = [randomUUID(), randomUUID(), null];
beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  await db.query(`insert into workspaces (id, name, slug) values ($1, 'Falls', 'falls')`, [workspaceId]);
});
afterAll(() => drop());

const DAYS = Array.from({ length: 12 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
// A day's counters for one pixel and source: shares that often halve, and some rows without identifiers.
const counters = fc
  .record({
    day: fc.constantFrom(...DAYS),
    pixel: fc.constantFrom('1', '2'),
    source: fc.constantFrom(...sources),
    keyed: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })),
    shares: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 5, maxLength: 5 }),
  })
  .map((r) => ({ ...r, keys: r.shares.map((n) => Math.min(n, r.keyed)) }));
const sortFalls = <T extends { source: string; key: string }>(xs: T[]) =>
  [...xs].sort((a, b) => a.source.localeCompare(b.source) || a.key.localeCompare(b.key));

describe('keyFalls', () => {
  it('finds the falls the single statement found, from the split on, against the days from `since`', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(counters, { selector: (r) => `${r.day} ${r.pixel} ${r.source}`, maxLength: 60 }),
        fc.constantFrom(...DAYS.slice(1)),
        fc.constantFrom(...DAYS),
        async (rows, split, sinceAny) => {
          // The days before the split summed from `since` on (the service passes at most four times the days after).
          const since = sinceAny < split ? sinceAny : DAYS[0]!;
          await db.query(`delete from insight_days where workspace_id = $1`, [workspaceId]);
          for (const r of rows)
            await db.query(
              `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, keyed, with_email, with_phone,
                                         with_name, with_address, with_external_id)
               values ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10)`,
              [workspaceId, r.day, r.pixel, r.source, r.keyed, ...r.keys],
            );
          const f = { workspaceId, span: spanOf(DAYS[0]!, DAYS.at(-1)!), pixelId: null, source: null };
          const expected = (await db.query(REFERENCE, [workspaceId, since, f.span.to, split])).rows;
          expect(sortFalls(keyFalls(await insightsRepo.keySums(db, f, split, since)))).toEqual(
            sortFalls(expected as { source: string; key: string }[]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
