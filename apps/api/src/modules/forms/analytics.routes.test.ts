import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_EVENTS, ANALYTICS_LIMITS } from '@backsignal/contracts';
import { buildApp } from '../../app.ts';
import type { App } from '../../deps.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { ANALYTICS_EVENTS_PER_ADDRESS_PER_HOUR } from './analytics.service.ts';

/** Issue 21 finding 1: the anonymous analytics door. */
let ctx: TestContext;
let now = new Date('2026-11-25T10:00:00Z');
const ORIGIN = 'http://localhost:3000';

beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => now } });
});
afterAll(() => ctx.close());

let ipSeq = 1;
const freshIp = () => `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;
const event = (over: object = {}) => ({
  name: 'cta_clicked',
  props: { label: 'Start' },
  path: '/',
  ts: 1,
  ...over,
});
const post = (app: App, body: object, headers: Record<string, string> = { origin: ORIGIN }, ip = freshIp()) =>
  app.inject({ method: 'POST', url: '/api/analytics', payload: body, headers, remoteAddress: ip });
const stored = async () =>
  (await ctx.db.query<{ n: number }>('select count(*)::int as n from analytics_events')).rows[0]!.n;

describe('who may post', () => {
  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['no Origin at all', {}],
    ['a cross-site fetch, even with our Origin', { origin: ORIGIN, 'sec-fetch-site': 'cross-site' }],
    ['a same-site (sibling subdomain) fetch', { origin: ORIGIN, 'sec-fetch-site': 'same-site' }],
  ])('refuses %s with 403 and stores nothing', async (_, headers) => {
    const before = await stored();
    const res = await post(ctx.app, { events: [event()] }, headers);
    expect(res.statusCode).toBe(403);
    expect(await stored()).toBe(before);
  });

  it.each([
    ['the configured app origin', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }],
    [
      'the origin the request was addressed to',
      { origin: 'http://shop.example:8080', host: 'shop.example:8080' },
    ],
  ])('accepts %s', async (_, headers) => {
    expect((await post(ctx.app, { events: [event()] }, headers)).statusCode).toBe(204);
  });
});

describe('what a post may carry', () => {
  it.each([
    [
      'too many events',
      { events: Array.from({ length: ANALYTICS_LIMITS.eventsPerPost + 1 }, () => event()) },
    ],
    [
      'too many properties',
      { events: [event({ props: Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, i])) })] },
    ],
    [
      'a long text property',
      { events: [event({ props: { label: 'x'.repeat(ANALYTICS_LIMITS.textLength + 1) } })] },
    ],
    [
      'a long property name',
      { events: [event({ props: { ['k'.repeat(ANALYTICS_LIMITS.keyLength + 1)]: 1 } })] },
    ],
    ['a long path', { events: [event({ path: `/${'p'.repeat(ANALYTICS_LIMITS.pathLength)}` })] }],
    ['an event name the app never sends', { events: [event({ name: 'purchase' })] }],
  ])('refuses %s with 400', async (_, body) => {
    const before = await stored();
    expect((await post(ctx.app, body)).statusCode).toBe(400);
    expect(await stored()).toBe(before);
  });

  it('accepts exactly the event names the web app sends', () => {
    const root = fileURLToPath(new URL('../../../../web/src/', import.meta.url));
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
          for (const m of readFileSync(p, 'utf8').matchAll(/\btrack\(\s*'([a-z_]+)'/g)) names.add(m[1]!);
      }
    };
    walk(root);
    expect([...names].sort()).toEqual([...ANALYTICS_EVENTS].sort());
  });
});

describe('a flood from one address', () => {
  it('is limited in the database, across instances, and grows it by well under 1 MB', async () => {
    // A second API instance on the same database: an in-memory limit would give each its own budget.
    const other = await buildApp({ config: ctx.config, db: ctx.db, mailer: ctx.mailer, now: () => now });
    await other.ready();
    try {
      const size = async () =>
        (
          await ctx.db.query<{ n: string }>(
            `select (pg_total_relation_size('analytics_events') + pg_total_relation_size('analytics_limits'))::text as n`,
          )
        ).rows[0]!.n;
      const before = Number(await size());
      const beforeRows = await stored();
      // The largest events a post may carry, from one address, as fast as the instances answer.
      const fat = event({
        props: Object.fromEntries(
          Array.from({ length: ANALYTICS_LIMITS.propsPerEvent }, (_, i) => [
            `${i}`.padEnd(ANALYTICS_LIMITS.keyLength, 'k'),
            'v'.repeat(ANALYTICS_LIMITS.textLength),
          ]),
        ),
        path: `/${'p'.repeat(ANALYTICS_LIMITS.pathLength - 1)}`,
      });
      const body = { events: Array.from({ length: ANALYTICS_LIMITS.eventsPerPost }, () => fat) };
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await post(i % 2 ? other : ctx.app, body, { origin: ORIGIN }, '203.0.113.9');
        statuses.push(res.statusCode);
      }
      const accepted = statuses.filter((s) => s === 204).length;
      expect(accepted * ANALYTICS_LIMITS.eventsPerPost).toBeLessThanOrEqual(
        ANALYTICS_EVENTS_PER_ADDRESS_PER_HOUR,
      );
      expect(statuses.filter((s) => s !== 204).every((s) => s === 429)).toBe(true);
      expect((await stored()) - beforeRows).toBe(accepted * ANALYTICS_LIMITS.eventsPerPost);
      expect(Number(await size()) - before).toBeLessThan(1024 * 1024);

      // The next hour brings a fresh budget; another address has its own.
      expect(
        (await post(ctx.app, { events: [event()] }, { origin: ORIGIN }, '203.0.113.10')).statusCode,
      ).toBe(204);
      now = new Date(now.getTime() + 60 * 60 * 1000);
      expect((await post(other, { events: [event()] }, { origin: ORIGIN }, '203.0.113.9')).statusCode).toBe(
        204,
      );
    } finally {
      await other.close();
    }
  });
});
