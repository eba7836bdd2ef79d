import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { Agent, loggedInAgent } from '../../test/agent.ts';
import { requireUser, requireVerifiedUser, currentUser } from './session.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../modules/sessions/sessions.service.ts';

let ctx: TestContext;
let clock = Date.now();

// A probe module: the guards and the XSRF check, independent of any feature.
const probe: FastifyPluginAsync = async (app) => {
  app.get('/api/probe/user', { preHandler: requireUser }, async (req) => ({ id: currentUser(req).id }));
  app.get('/api/probe/verified', { preHandler: requireVerifiedUser }, async () => ({ ok: true }));
  app.post('/api/probe/change', { preHandler: requireUser }, async () => ({ changed: true }));
};

beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => new Date(clock) } });
  // Register after ready is not allowed, so build a second app sharing the same db for the probe routes.
  const { buildApp } = await import('../app.ts');
  const app = await buildApp({
    config: ctx.config,
    db: ctx.db,
    mailer: ctx.mailer,
    now: () => new Date(clock),
  });
  await app.register(probe);
  await app.ready();
  const close = ctx.close;
  ctx = {
    ...ctx,
    app,
    close: async () => {
      await app.close();
      await close();
    },
  };
});
afterAll(() => ctx.close());

describe('session guards', () => {
  it('401 without a session, 403 for an unverified user, 200 for a verified one', async () => {
    expect((await new Agent(ctx.app).get('/api/probe/user')).statusCode).toBe(401);
    const unverified = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.agent.get('/api/probe/user')).statusCode).toBe(200);
    const r = await unverified.agent.get('/api/probe/verified');
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('EMAIL_NOT_VERIFIED');
    const verified = await loggedInAgent(ctx.app, ctx.db);
    expect((await verified.agent.get('/api/probe/verified')).statusCode).toBe(200);
  });

  it('expires a session after the idle timeout and after the absolute lifetime', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    clock += SESSION_IDLE_MS - 60_000;
    expect((await agent.get('/api/probe/user')).statusCode).toBe(200);
    clock += SESSION_IDLE_MS + 1;
    expect((await agent.get('/api/probe/user')).statusCode).toBe(401);

    const fresh = await loggedInAgent(ctx.app, ctx.db);
    clock = Date.now() + SESSION_ABSOLUTE_MS + 1000;
    expect((await fresh.agent.get('/api/probe/user')).statusCode).toBe(401);
    clock = Date.now();
  });
});

describe('XSRF', () => {
  it('accepts the token of the own session and refuses one minted for another session', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    expect((await a.agent.post('/api/probe/change', {})).statusCode).toBe(200);
    await b.agent.get('/api/probe/user');
    const stolen = b.agent.cookies.get('XSRF-TOKEN')!;
    a.agent.cookies.set('XSRF-TOKEN', stolen);
    const r = await a.agent.post('/api/probe/change', {}, { headers: { 'x-xsrf-token': stolen } });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('XSRF_INVALID');
  });

  it('refuses a header that differs from the cookie and a text/plain cross-site post', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    await agent.get('/api/probe/user');
    const r1 = await agent.post('/api/probe/change', {}, { headers: { 'x-xsrf-token': 'other.value' } });
    expect(r1.statusCode).toBe(403);
    const r2 = await agent.request({
      method: 'POST',
      url: '/api/probe/change',
      payload: 'a=1',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      xsrf: false,
    });
    expect(r2.statusCode).toBe(403);
  });

  it('sets session-independent cookie flags: XSRF readable by the SPA, SameSite=Lax', async () => {
    const res = await ctx.app.inject({ url: '/api/config' });
    const c = res.cookies.find((x) => x.name === 'XSRF-TOKEN')!;
    expect(c.httpOnly).toBeFalsy();
    expect(c.sameSite).toBe('Lax');
  });
});
