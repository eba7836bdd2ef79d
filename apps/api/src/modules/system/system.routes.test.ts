import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent } from '../../../test/agent.ts';
import type { Db } from '../../db/db.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('system routes', () => {
  it('answers health with security headers', async () => {
    const res = await ctx.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers liveness without asking the database', async () => {
    const down = await createTestContext({
      deps: {
        db: { ...ctx.db, kind: ctx.db.kind, query: () => Promise.reject(new Error('database down')) } as Db,
      },
    });
    try {
      expect((await down.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      const ready = await down.app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, database: 'unreachable', worker: 'off' });
    } finally {
      await down.close();
    }
  });

  it('is ready when the database answers with every migration applied and the jobs are registered', async () => {
    const ready = await ctx.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, database: 'ok', worker: 'off' });

    const [last] = (
      await ctx.db.query<{ name: string }>('select name from schema_migrations order by name desc limit 1')
    ).rows;
    await ctx.db.query('delete from schema_migrations where name = $1', [last!.name]);
    try {
      const behind = await ctx.app.inject({ url: '/api/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().database).toBe('1 migrations pending');
    } finally {
      await ctx.db.query('insert into schema_migrations (name) values ($1)', [last!.name]);
    }

    let jobs: 'starting' | 'registered' = 'starting';
    const worker = await createTestContext({ deps: { worker: () => jobs } });
    try {
      expect((await worker.app.inject({ url: '/api/ready' })).json()).toEqual({
        ready: false,
        database: 'ok',
        worker: 'starting',
      });
      jobs = 'registered';
      const up = await worker.app.inject({ url: '/api/ready' });
      expect(up.statusCode).toBe(200);
      expect(up.json().worker).toBe('registered');
    } finally {
      await worker.close();
    }
  });

  it('serves public config with no secrets', async () => {
    const res = await ctx.app.inject({ url: '/api/config' });
    expect(res.statusCode).toBe(200);
    // The beta's real limits, for /pricing.
    expect(res.json()).toMatchObject({
      captchaMode: 'dev',
      maxUploadMb: 10,
      quotaUploadMbPerDay: 1024,
      quotaRowsPerDay: 5_000_000,
      retentionDays: 365,
    });
    expect(res.body).not.toContain(ctx.config.sessionSecret);
  });

  it('serves sitemap.xml with every public page and robots.txt keeping crawlers out of the app', async () => {
    const map = await ctx.app.inject({ url: '/sitemap.xml' });
    expect(map.headers['content-type']).toContain('application/xml');
    expect(map.body).toContain('<loc>http://localhost:3000/audit</loc>');
    expect(map.body).toContain('<loc>http://localhost:3000/</loc>');
    // Issue 29: the pricing page is a page like the others.
    expect(map.body).toContain('<loc>http://localhost:3000/pricing</loc>');
    const robots = await ctx.app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Disallow: /dashboard');
    expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    const res = await ctx.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Not found' });
  });

  it('issues an XSRF cookie and refuses an unsafe request without the header', async () => {
    const agent = new Agent(ctx.app);
    await agent.get('/api/config');
    expect(agent.cookies.get('XSRF-TOKEN')).toMatch(/^[\w-]+\.[\w-]+$/);
    const res = await agent.post('/api/health', {}, { xsrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('XSRF_INVALID');
  });

  it('refuses a forged XSRF token that matches its own cookie', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { cookie: 'XSRF-TOKEN=abc.def', 'x-xsrf-token': 'abc.def' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('serving the built web app', () => {
  it('serves prerendered pages, the shell for app routes, and 404 for missing assets', async () => {
    const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = mkdtempSync(join(tmpdir(), 'bs-dist-'));
    writeFileSync(join(dist, 'index.html'), '<div id="root"><!--app-html--></div>');
    mkdirSync(join(dist, 'prerendered', 'audit'), { recursive: true });
    writeFileSync(join(dist, 'prerendered', 'index.html'), '<h1>home</h1>');
    writeFileSync(join(dist, 'prerendered', 'audit', 'index.html'), '<h1>audit</h1>');
    const web = await createTestContext({ deps: { webDist: dist } });
    try {
      expect((await web.app.inject({ url: '/' })).body).toContain('home');
      expect((await web.app.inject({ url: '/audit' })).body).toContain('audit');
      const shell = await web.app.inject({ url: '/dashboard' });
      expect(shell.statusCode).toBe(200);
      expect(shell.body).toContain('app-html');
      expect((await web.app.inject({ url: '/assets/old-123.js' })).statusCode).toBe(404);
      expect((await web.app.inject({ url: '/api/nope' })).json().code).toBe('NOT_FOUND');
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('answers 404 with the not-found page for paths that match no route, 200 for app and public routes', async () => {
    const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = mkdtempSync(join(tmpdir(), 'bs-dist-'));
    writeFileSync(join(dist, 'index.html'), '<div id="root"><!--app-html--></div>');
    writeFileSync(join(dist, '404.html'), "<h1>Oops! The page you're looking for doesn't exist.</h1>");
    mkdirSync(join(dist, 'prerendered', 'contact'), { recursive: true });
    writeFileSync(join(dist, 'prerendered', 'contact', 'index.html'), '<h1>contact</h1>');
    const web = await createTestContext({ deps: { webDist: dist } });
    try {
      for (const url of [
        '/this/does/not/exist',
        '/dashboardx',
        '/audit/extra',
        '/nope?x=1',
        '/w/acme-1a2b3c4d/nope',
        '/w/Not A Slug/dashboard',
      ]) {
        const res = await web.app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toContain('text/html');
        expect(res.body, url).toContain("Oops! The page you're looking for doesn't exist.");
      }
      for (const url of [
        '/dashboard',
        '/map-columns?fileId=1',
        '/login',
        '/verify?token=x',
        '/invite?token=x',
        '/settings/',
        '/sources/4d2c0f1e-0000-4000-8000-000000000000/edit',
        '/w/acme-1a2b3c4d',
        '/w/acme-1a2b3c4d/summary?fileId=1',
        '/w/acme-1a2b3c4d/settings/activity',
        '/contact',
        '/lead-ai',
      ]) {
        const res = await web.app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).not.toContain('Oops!');
        // A load balancer's or a link checker's HEAD gets the same status, without the page.
        const head = await web.app.inject({ method: 'HEAD', url });
        expect(head.statusCode, url).toBe(200);
        expect(head.headers['content-type'], url).toContain('text/html');
      }
      expect((await web.app.inject({ method: 'HEAD', url: '/nope' })).statusCode).toBe(404);
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
