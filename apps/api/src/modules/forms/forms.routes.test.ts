import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer, json } from '../../../test/fake-http.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const captcha = async (agent: Agent) => (await agent.get('/api/captcha/dev')).json().token as string;
const anon = () => new Agent(ctx.app);

describe('contact', () => {
  it('accepts an anonymous message with name, email and a fresh captcha, stores it and mails operations', async () => {
    const agent = anon();
    const before = ctx.mailer.sent.length;
    const res = await agent.post('/api/contact', {
      name: 'Dana',
      email: 'dana@example.com',
      reason: 'billing',
      message: 'Hello',
      captchaToken: await captcha(agent),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Message sent successfully!');
    // Mails go out after the answer.
    await vi.waitFor(() => expect(ctx.mailer.sent.length).toBe(before + 1));
    expect(ctx.mailer.last()!.to).toBe(ctx.config.opsEmail);
    const r = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from public_submissions where kind = 'contact' and email = 'dana@example.com'`,
    );
    expect(r.rows[0]!.n).toBe(1);
  });

  it('needs name and email from anonymous visitors but not from a logged-in user', async () => {
    const agent = anon();
    const res = await agent.post('/api/contact', {
      reason: 'bug',
      message: 'Broken',
      captchaToken: await captcha(agent),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please fill in all required fields.');
    const { agent: user, email } = await loggedInAgent(ctx.app, ctx.db);
    const ok = await user.post('/api/contact', {
      reason: 'bug',
      message: 'Broken',
      captchaToken: await captcha(user),
    });
    expect(ok.statusCode).toBe(200);
    await vi.waitFor(() => expect(ctx.mailer.last()!.text).toContain(email));
  });

  it.each([
    [{ reason: 'bug', captchaToken: 'x', name: 'a', email: 'a@b.co' }, 'Please fill in all required fields.'],
    [{ message: 'hi', captchaToken: 'x', name: 'a', email: 'a@b.co' }, 'Please fill in all required fields.'],
    [{ message: 'hi', reason: 'bug', name: 'a', email: 'a@b.co' }, 'Please complete the captcha.'],
  ])('refuses %j', async (body, message) => {
    const res = await anon().post('/api/contact', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('routes the lead-AI waitlist through contact', async () => {
    const agent = anon();
    const res = await agent.post('/api/contact', {
      name: 'Lee',
      email: 'lee@example.com',
      reason: 'lead-ai-waitlist',
      message: 'Sign me up',
      captchaToken: await captcha(agent),
    });
    expect(res.json().message).toBe("You're on the Waitlist!");
  });
});

describe('captcha', () => {
  it('refuses invalid and replayed tokens', async () => {
    const agent = anon();
    const body = { name: 'Pat', email: 'pat@example.com', businessType: 'HVAC' };
    const bad = await agent.post(
      '/api/automation-waitlist',
      { ...body, captchaToken: 'dev.forged.9999999999999.sig' },
      { xsrf: false },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please complete the captcha.');
    const token = await captcha(agent);
    expect(
      (await agent.post('/api/automation-waitlist', { ...body, captchaToken: token }, { xsrf: false }))
        .statusCode,
    ).toBe(200);
    const replay = await agent.post(
      '/api/automation-waitlist',
      { ...body, captchaToken: token },
      { xsrf: false },
    );
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('Please complete the captcha.');
  });

  it('prunes used tokens older than a day when it stores a new one, and keeps recent ones', async () => {
    await ctx.db.query(
      `insert into used_captcha_tokens (token_hash, used_at) values ('old-hash', now() - interval '25 hours'), ('recent-hash', now() - interval '23 hours')`,
    );
    const agent = anon();
    const res = await agent.post(
      '/api/automation-waitlist',
      { name: 'Pru', email: 'pru@example.com', businessType: 'HVAC', captchaToken: await captcha(agent) },
      { xsrf: false },
    );
    expect(res.statusCode).toBe(200);
    const r = await ctx.db.query<{ token_hash: string }>(
      `select token_hash from used_captcha_tokens where token_hash in ('old-hash', 'recent-hash')`,
    );
    expect(r.rows.map((x) => x.token_hash)).toEqual(['recent-hash']);
  });

  it('verifies Turnstile tokens on the server when keys are configured', async () => {
    const cf = await fakeServer((req, res) =>
      json(res, 200, { success: req.body.includes('response=good') }),
    );
    const fetchVia: typeof fetch = (input, init) =>
      fetch(String(input).replace('https://challenges.cloudflare.com', cf.url), init);
    const c = await createTestContext({
      env: { CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: 'secret' },
      deps: { fetch: fetchVia },
    });
    try {
      const body = { name: 'Pat', email: 'pat@example.com', businessType: 'HVAC' };
      const a = new Agent(c.app);
      expect(
        (await a.post('/api/automation-waitlist', { ...body, captchaToken: 'bad' }, { xsrf: false }))
          .statusCode,
      ).toBe(400);
      expect(
        (await a.post('/api/automation-waitlist', { ...body, captchaToken: 'good' }, { xsrf: false }))
          .statusCode,
      ).toBe(200);
      expect(
        (await a.post('/api/automation-waitlist', { ...body, captchaToken: 'good' }, { xsrf: false }))
          .statusCode,
      ).toBe(400);
      expect(cf.requests[0]!.body).toContain('secret=secret');
      expect((await a.get('/api/captcha/dev')).statusCode).toBe(404);
    } finally {
      await c.close();
      await cf.close();
    }
  });
});

describe('automation waitlist and audit', () => {
  it('joins the waitlist without credentials', async () => {
    const agent = anon();
    const res = await agent.post(
      '/api/automation-waitlist',
      { name: 'Sam', email: 'sam@example.com', businessType: 'Roofing', captchaToken: await captcha(agent) },
      { xsrf: false, headers: {} },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe("You've been added to the waitlist!");
    expect(
      (
        await agent.post(
          '/api/automation-waitlist',
          { name: 'Sam', email: 'sam@example.com', businessType: 'Bakery', captchaToken: 'x' },
          { xsrf: false },
        )
      ).statusCode,
    ).toBe(400);
  });

  it('stores an audit, mails operations and the visitor their score with a results link', async () => {
    const agent = anon();
    const res = await agent.post(
      '/api/audit',
      {
        name: 'Ria',
        email: 'ria@example.com',
        website: 'https://ria.example',
        businessType: 'PestControl',
        leaks: ['I can see which campaigns drive phone calls', 'My leads are synced back to my ad platforms'],
        captchaToken: await captcha(agent),
      },
      { xsrf: false },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().resultsUrl).toBe(
      'http://localhost:3000/audit-results?leaks=callTracking,offlineConversions',
    );
    const mail = await vi.waitFor(() => ctx.mailer.last('ria@example.com')!);
    expect(mail.subject).toBe('Your ad tracking audit: 40/100');
    expect(mail.text).toContain('/audit-results?leaks=callTracking,offlineConversions');
    expect(mail.html).not.toContain('<script');
  });

  it('rate-limits by email and sends no mail past the limit', async () => {
    const email = 'busy@example.com';
    for (let i = 0; i < 5; i++) {
      const a = anon();
      expect(
        (
          await a.post(
            '/api/automation-waitlist',
            { name: 'B', email, businessType: 'HVAC', captchaToken: await captcha(a) },
            { xsrf: false },
          )
        ).statusCode,
      ).toBe(200);
    }
    const sent = ctx.mailer.sent.length;
    const a = anon();
    const res = await a.post(
      '/api/automation-waitlist',
      { name: 'B', email, businessType: 'HVAC', captchaToken: await captcha(a) },
      { xsrf: false },
    );
    expect(res.statusCode).toBe(429);
    await new Promise((r) => setTimeout(r, 50));
    expect(ctx.mailer.sent.length).toBe(sent);
  });
});

describe('a failing mailer', () => {
  it('still answers success once the submission is stored, and stores it once', async () => {
    const attempts: string[] = [];
    const c = await createTestContext({
      deps: {
        mailer: {
          send: async (m) => {
            attempts.push(m.subject);
            throw new Error('SMTP down');
          },
        },
      },
    });
    try {
      const count = async (kind: string, email: string) =>
        (
          await c.db.query<{ n: number }>(
            'select count(*)::int as n from public_submissions where kind = $1 and email = $2',
            [kind, email],
          )
        ).rows[0]!.n;
      const token = async (a: Agent) => (await a.get('/api/captcha/dev')).json().token as string;

      const a1 = new Agent(c.app);
      const contact = await a1.post('/api/contact', {
        name: 'Mo',
        email: 'mo@example.com',
        reason: 'question',
        message: 'Hi',
        captchaToken: await token(a1),
      });
      expect(contact.statusCode).toBe(200);
      expect(contact.json().message).toBe('Message sent successfully!');
      expect(await count('contact', 'mo@example.com')).toBe(1);

      const a2 = new Agent(c.app);
      const wait = await a2.post(
        '/api/automation-waitlist',
        { name: 'Mo', email: 'mo@example.com', businessType: 'HVAC', captchaToken: await token(a2) },
        { xsrf: false },
      );
      expect(wait.statusCode).toBe(200);
      expect(await count('automation_waitlist', 'mo@example.com')).toBe(1);

      const a3 = new Agent(c.app);
      const audit = await a3.post(
        '/api/audit',
        {
          name: 'Mo',
          email: 'mo@example.com',
          businessType: 'HVAC',
          leaks: [],
          captchaToken: await token(a3),
        },
        { xsrf: false },
      );
      expect(audit.statusCode).toBe(200);
      expect(audit.json().resultsUrl).toContain('/audit-results?leaks=');
      expect(await count('audit', 'mo@example.com')).toBe(1);
      // Every mail was still attempted (ops and the visitor's audit result), each failure only logged.
      await vi.waitFor(() => expect(attempts.length).toBe(4));
    } finally {
      await c.close();
    }
  });
});

describe('analytics', () => {
  it('stores a batch of allowed events and refuses unknown names', async () => {
    const ok = await anon().post(
      '/api/analytics',
      { events: [{ name: 'landing_page_viewed', props: { variant: 'csv' }, path: '/', ts: Date.now() }] },
      { xsrf: false, headers: { origin: 'http://localhost:3000' } },
    );
    expect(ok.statusCode).toBe(204);
    const r = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from analytics_events where name = 'landing_page_viewed'`,
    );
    expect(r.rows[0]!.n).toBe(1);
    expect(
      (await anon().post('/api/analytics', { events: [{ name: 'drop_table', ts: 1 }] }, { xsrf: false }))
        .statusCode,
    ).toBe(400);
  });

  it('never attributes events to the session user, since the XSRF check is skipped', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const res = await agent.post(
      '/api/analytics',
      { events: [{ name: 'sign_up', props: { via: 'cross-site' }, path: '/', ts: Date.now() }] },
      { xsrf: false, headers: { origin: 'http://localhost:3000' } },
    );
    expect(res.statusCode).toBe(204);
    const r = await ctx.db.query<{ user_id: string | null }>(
      `select user_id from analytics_events where name = 'sign_up' and props->>'via' = 'cross-site'`,
    );
    expect(r.rows).toEqual([{ user_id: null }]);
  });

  it('counts an IPv6 visitor by its /64 and stores no more of the address than that', async () => {
    const join = async (i: number) => {
      const a = new Agent(ctx.app, { ip: `2001:db8:99:5:${(i + 1).toString(16)}::1` });
      return a.post(
        '/api/automation-waitlist',
        { name: 'V6', email: `v6-${i}@example.com`, businessType: 'HVAC', captchaToken: await captcha(a) },
        { xsrf: false },
      );
    };
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await join(i)).statusCode);
    expect(codes).toEqual([...Array<number>(20).fill(200), 429]);
    const stored = await ctx.db.query<{ ip: string }>(
      "select distinct ip from public_submissions where email like 'v6-%'",
    );
    expect(stored.rows).toEqual([{ ip: '2001:db8:99:5::/64' }]);
  });
});
