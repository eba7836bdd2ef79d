import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { Agent, loggedInAgent } from '../../test/agent.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const count = async (sql: string, params: unknown[] = []) =>
  (await ctx.db.query<{ n: number }>(sql, params)).rows[0]!.n;
const MESSAGE = 'Text may not contain the NUL character (U+0000). Please remove it and try again.';

describe('a NUL character (U+0000) anywhere in a request', () => {
  it('is refused in a JSON body with 400 naming the field, before anything is stored or mailed', async () => {
    const address = `nul-${Date.now()}@example.com`;
    const before = ctx.mailer.sent.length;
    const res = await new Agent(ctx.app).post('/auth/signup', {
      email: address,
      firstName: 'a\u0000b',
      password: 'Sturdy-Lantern-42!',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: MESSAGE,
      fields: { firstName: 'Contains the NUL character (U+0000).' },
    });
    expect(await count('select count(*)::int as n from users where email = $1', [address])).toBe(0);
    expect(ctx.mailer.sent.length).toBe(before);
  });

  it.each([
    [
      'a value',
      { events: [{ name: 'landing_page_viewed', props: { variant: 'a\u0000' }, ts: 1 }] },
      'events.0.props.variant',
    ],
    [
      'a key',
      { events: [{ name: 'landing_page_viewed', props: { 'a\u0000': 'x' }, ts: 1 }] },
      'events.0.props.a',
    ],
    ['its page path', { events: [{ name: 'landing_page_viewed', path: '/\u0000', ts: 1 }] }, 'events.0.path'],
  ])('is refused in %s of an anonymous analytics batch', async (_, body, field) => {
    const before = await count('select count(*)::int as n from analytics_events');
    const res = await new Agent(ctx.app).post('/api/analytics', body, { xsrf: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGE);
    expect(Object.keys(res.json().fields)).toEqual([field]);
    expect(await count('select count(*)::int as n from analytics_events')).toBe(before);
  });

  it('is refused in a query string and in a path parameter', async () => {
    const query = await new Agent(ctx.app).get('/auth/verify?token=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ message: MESSAGE, fields: { token: expect.any(String) } });
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const param = await agent.get('/api/mappings/a%00b');
    expect(param.statusCode).toBe(400);
    expect(param.json()).toMatchObject({ message: MESSAGE, fields: { id: expect.any(String) } });
  });

  it('leaves text without one alone, escaped backslashes included', async () => {
    const res = await new Agent(ctx.app).post(
      '/api/analytics',
      { events: [{ name: 'landing_page_viewed', props: { variant: '\\u0000 is six characters' }, ts: 1 }] },
      { xsrf: false, headers: { origin: 'http://localhost:3000' } },
    );
    expect(res.statusCode).toBe(204);
  });
});

describe('half of a UTF-16 surrogate pair (not valid Unicode, so not valid UTF-8)', () => {
  it.each([
    ['a high half', 'a\\ud800'],
    ['a low half', '\\udc00b'],
    ['two high halves', '\\ud83d\\ud83d'],
  ])('is refused in an analytics prop (%s) with 400, not the 500 of a jsonb insert', async (_, escaped) => {
    const before = await count('select count(*)::int as n from analytics_events');
    const res = await new Agent(ctx.app).request({
      method: 'POST',
      url: '/api/analytics',
      xsrf: false,
      headers: { 'content-type': 'application/json' },
      payload: `{"events":[{"name":"landing_page_viewed","props":{"variant":"${escaped}"},"ts":1}]}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Text must be valid Unicode: it has half of a character pair. Please retype it and try again.',
      fields: { 'events.0.props.variant': 'Contains half of a Unicode character pair.' },
    });
    expect(await count('select count(*)::int as n from analytics_events')).toBe(before);
  });

  it('leaves whole pairs alone', async () => {
    const res = await new Agent(ctx.app).request({
      method: 'POST',
      url: '/api/analytics',
      xsrf: false,
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: '{"events":[{"name":"landing_page_viewed","props":{"variant":"\\ud83d\\ude00 ok"},"ts":1}]}',
    });
    expect(res.statusCode).toBe(204);
  });
});
