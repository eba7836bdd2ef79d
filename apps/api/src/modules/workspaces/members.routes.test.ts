import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceRole } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent, TEST_PASSWORD } from '../../../test/agent.ts';
import { tokenHash } from '../../lib/tokens.ts';
import { pruneExpired } from '../accounts/housekeeping.ts';
import { INVITATION_TTL_MS } from './members.service.ts';

// The app's clock: real time plus an offset a test moves back (sessions live on the real clock, so never forward).
let offset = 0;
const clock = () => new Date(Date.now() + offset);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: clock } });
});
afterAll(() => ctx.close());
afterEach(() => {
  offset = 0;
});

const inWs = (slug: string) => ({ headers: { 'x-workspace': slug } });
const HOUR = 3600_000;

type Person = Awaited<ReturnType<typeof loggedInAgent>>;

/** An owner with a fresh workspace of their own (their first), and its slug. */
async function team(): Promise<{ owner: Person; slug: string; id: string }> {
  const owner = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Olive' });
  const w = (await owner.agent.get('/api/workspace')).json();
  return { owner, slug: w.slug, id: w.id };
}

async function member(workspaceId: string, role: WorkspaceRole, email?: string): Promise<Person> {
  const p = await loggedInAgent(ctx.app, ctx.db, { email });
  await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    p.userId,
    role,
  ]);
  return p;
}

const tokenIn = (text: string) => /\/invite\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function invite(agent: Agent, slug: string, email: string, role: WorkspaceRole = 'member') {
  const r = await agent.post('/api/workspace/invitations', { email, role }, inWs(slug));
  const token = r.statusCode === 201 ? tokenIn(ctx.mailer.last(email.toLowerCase())!.text) : undefined;
  return { r, token, id: r.statusCode === 201 ? (r.json().invitation.id as string) : undefined };
}

const roleIn = async (workspaceId: string, userId: string) =>
  (
    await ctx.db.query<{ role: string }>(
      'select role from workspace_members where workspace_id = $1 and user_id = $2',
      [workspaceId, userId],
    )
  ).rows[0]?.role;

describe('the activity log', () => {
  it('records invited, joined, role changed and removed, with who did each', async () => {
    const { owner, slug } = await team();
    const email = `dana-${randomUUID().slice(0, 6)}@example.com`;
    const dana = await loggedInAgent(ctx.app, ctx.db, { email, firstName: 'Dana' });
    const { token } = await invite(owner.agent, slug, email, 'viewer');
    expect((await dana.agent.post('/api/invitations/accept', { token })).statusCode).toBe(200);
    expect(
      (await owner.agent.patch(`/api/workspace/members/${dana.userId}`, { role: 'member' }, inWs(slug)))
        .statusCode,
    ).toBe(200);
    expect((await owner.agent.delete(`/api/workspace/members/${dana.userId}`, inWs(slug))).statusCode).toBe(
      200,
    );
    const log = (await owner.agent.get('/api/workspace/activity?kind=member.invited', inWs(slug))).json();
    expect(log.entries).toHaveLength(1);
    const all = (await owner.agent.get('/api/workspace/activity', inWs(slug))).json() as {
      entries: {
        kind: string;
        actorUserId: string;
        subject: string | null;
        details: Record<string, unknown>;
      }[];
    };
    const members = all.entries.filter((e) => e.kind.startsWith('member.')).reverse();
    expect(members.map((e) => [e.kind, e.actorUserId, e.subject, e.details])).toEqual([
      ['member.invited', owner.userId, email, { role: 'viewer' }],
      ['member.joined', dana.userId, null, { role: 'viewer' }],
      ['member.role_changed', owner.userId, `Dana Tester <${email}>`, { role: 'member' }],
      ['member.removed', owner.userId, `Dana Tester <${email}>`, {}],
    ]);
  });
});

describe('invitations', () => {
  it('invites by mail; the invited address accepts once and joins with the role', async () => {
    const { owner, slug, id } = await team();
    const bob = await loggedInAgent(ctx.app, ctx.db, {
      email: `bob-${randomUUID().slice(0, 6)}@example.com`,
    });
    await ctx.db.query(`update workspaces set name = 'Acme & Co' where id = $1`, [id]);

    const { r, token } = await invite(owner.agent, slug, bob.email.toUpperCase(), 'member');
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({
      invitation: { email: bob.email, role: 'member', invitedBy: 'Olive Tester', expired: false },
      message: `Invitation sent to ${bob.email}.`,
    });
    const mail = ctx.mailer.last(bob.email)!;
    expect(mail.subject).toBe('Olive Tester invited you to Acme & Co on Backsignal');
    expect(mail.text).toContain(`http://localhost:3000/invite?token=${token}`);
    expect(mail.text).toContain('expires in 7 days');
    expect(mail.html).toContain('Acme &amp; Co');
    expect(mail.html).toContain(`http://localhost:3000/invite?token=${token}`);
    // Only the token's hash is stored; the link lasts 7 days.
    const row = (
      await ctx.db.query<{ token_hash: string; expires_at: Date; created_at: Date }>(
        'select token_hash, expires_at, created_at from workspace_invitations where workspace_id = $1',
        [id],
      )
    ).rows[0]!;
    expect(row.token_hash).toBe(tokenHash(token!));
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(INVITATION_TTL_MS);

    const preview = await bob.agent.get(`/api/invitations/preview?token=${token}`);
    expect(preview.json()).toMatchObject({
      workspaceName: 'Acme & Co',
      invitedBy: 'Olive Tester',
      role: 'member',
      state: 'pending',
      alreadyMember: false,
    });

    const accepted = await bob.agent.post('/api/invitations/accept', { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      workspace: { id, slug, name: 'Acme & Co', role: 'member' },
      message: 'You joined Acme & Co.',
    });
    // The joined workspace opens next, and acts by its role.
    expect((await bob.agent.get('/api/workspaces')).json().current).toBe(slug);
    expect((await bob.agent.get('/api/workspace', inWs(slug))).json().role).toBe('member');

    const again = await bob.agent.post('/api/invitations/accept', { token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'INVALID_STATE',
      message: 'This invitation was already used.',
    });
    expect((await bob.agent.get(`/api/invitations/preview?token=${token}`)).json().state).toBe('accepted');

    const list = (await owner.agent.get('/api/workspace/members', inWs(slug))).json();
    expect(list.invitations).toEqual([]);
    expect(list.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [bob.email, 'member'],
    ]);
  });

  it('lets a new person sign up with the invited address, verify it, log in and accept', async () => {
    const { owner, slug } = await team();
    const email = `new-${randomUUID().slice(0, 6)}@example.com`;
    const { token } = await invite(owner.agent, slug, email, 'viewer');
    const agent = new Agent(ctx.app);
    const signup = { email, firstName: 'Nia', lastName: 'New', password: 'Str0ng!Passw0rd', company: '' };
    expect((await agent.post('/auth/signup', signup)).statusCode).toBe(202);
    // Before verifying: logged in but unverified, the invitation cannot be accepted yet.
    const login = await agent.post('/auth/login', { email, password: signup.password });
    expect(login.statusCode).toBe(200);
    const early = await agent.post('/api/invitations/accept', { token });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');
    // The preview still shows what the invitation is, to the invited address.
    expect((await agent.get(`/api/invitations/preview?token=${token}`)).json().state).toBe('pending');

    await expect
      .poll(() => ctx.mailer.sent.find((m) => m.to === email && m.subject.startsWith('Verify')))
      .toBeTruthy();
    const verify = ctx.mailer.sent.find((m) => m.to === email && m.subject.startsWith('Verify'))!;
    const vt = /\/verify\?token=([A-Za-z0-9_-]+)/.exec(verify.text)![1];
    expect((await agent.get(`/auth/verify?token=${vt}`)).statusCode).toBe(200);
    const ok = await agent.post('/api/invitations/accept', { token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().workspace).toMatchObject({ slug, role: 'viewer' });
    // The signup's own workspace stays theirs.
    expect((await agent.get('/api/workspaces')).json().workspaces).toHaveLength(2);
  });

  it('refuses a link opened by another account, and tells it nothing but that', async () => {
    const { owner, slug } = await team();
    const { token } = await invite(owner.agent, slug, `someone-${randomUUID().slice(0, 6)}@example.com`);
    const other = await loggedInAgent(ctx.app, ctx.db);
    for (const r of [
      await other.agent.post('/api/invitations/accept', { token }),
      await other.agent.get(`/api/invitations/preview?token=${token}`),
    ]) {
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({
        code: 'FORBIDDEN',
        message:
          'This invitation is for another email address. Log in with the address the invitation was sent to.',
      });
      expect(JSON.stringify(r.json())).not.toContain('Olive');
    }
    expect(await roleIn(owner.userId, other.userId)).toBeUndefined();
  });

  it('answers 401 logged out, 400 without a token, 404 for an unknown link, 409 for a member already in', async () => {
    const { owner, slug, id } = await team();
    const anon = new Agent(ctx.app);
    expect((await anon.post('/api/invitations/accept', { token: 'x' })).statusCode).toBe(401);
    expect((await anon.get('/api/invitations/preview?token=x')).statusCode).toBe(401);
    const p = await loggedInAgent(ctx.app, ctx.db);
    expect((await p.agent.post('/api/invitations/accept', {})).statusCode).toBe(400);
    expect((await p.agent.post('/api/invitations/accept', { token: '' })).statusCode).toBe(400);
    expect((await p.agent.get('/api/invitations/preview')).statusCode).toBe(400);
    const unknown = await p.agent.post('/api/invitations/accept', { token: 'no-such-token' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await p.agent.get('/api/invitations/preview?token=no-such-token')).statusCode).toBe(404);

    // Invited, then added another way before accepting: the link says so and stays unused.
    const { token } = await invite(owner.agent, slug, p.email);
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [id, p.userId],
    );
    expect((await p.agent.get(`/api/invitations/preview?token=${token}`)).json().alreadyMember).toBe(true);
    const dup = await p.agent.post('/api/invitations/accept', { token });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await roleIn(id, p.userId)).toBe('viewer');
  });

  it('refuses inviting a current member or an address already invited', async () => {
    const { owner, slug, id } = await team();
    const m = await member(id, 'member');
    const r = await owner.agent.post(
      '/api/workspace/invitations',
      { email: m.email.toUpperCase(), role: 'admin' },
      inWs(slug),
    );
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      code: 'CONFLICT',
      message: `${m.email} is already a member of this workspace.`,
    });
    const self = await owner.agent.post(
      '/api/workspace/invitations',
      { email: owner.email, role: 'admin' },
      inWs(slug),
    );
    expect(self.statusCode).toBe(409);

    const email = `twice-${randomUUID().slice(0, 6)}@example.com`;
    expect((await invite(owner.agent, slug, email)).r.statusCode).toBe(201);
    const twice = await owner.agent.post('/api/workspace/invitations', { email, role: 'viewer' }, inWs(slug));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(`${email} is already invited. Resend the invitation instead.`);

    for (const body of [
      { email: 'not-an-address', role: 'member' },
      { email, role: 'boss' },
      { role: 'member' },
    ])
      expect((await owner.agent.post('/api/workspace/invitations', body, inWs(slug))).statusCode).toBe(400);
  });

  it('expires a link after 7 days; a resend makes a new link and the old one stops working', async () => {
    const { owner, slug } = await team();
    const guest = await loggedInAgent(ctx.app, ctx.db);
    // Sent a week and a second ago (the app's clock moved back: sessions live on the real one).
    offset = -(INVITATION_TTL_MS + 1000);
    const { token, id } = await invite(owner.agent, slug, guest.email);
    offset = 0;

    const late = await guest.agent.post('/api/invitations/accept', { token });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'INVALID_STATE',
      message: 'This invitation has expired. Ask for a new one.',
    });
    expect((await guest.agent.get(`/api/invitations/preview?token=${token}`)).json().state).toBe('expired');
    const listed = (await owner.agent.get('/api/workspace/invitations', inWs(slug))).json().invitations;
    expect(listed).toMatchObject([{ id, expired: true }]);

    const resent = await owner.agent.post(`/api/workspace/invitations/${id}/resend`, {}, inWs(slug));
    expect(resent.statusCode).toBe(200);
    expect(resent.json().invitation).toMatchObject({ id, expired: false });
    const fresh = tokenIn(ctx.mailer.last(guest.email)!.text)!;
    expect(fresh).not.toBe(token);
    expect((await guest.agent.post('/api/invitations/accept', { token })).statusCode).toBe(404);
    expect((await guest.agent.post('/api/invitations/accept', { token: fresh })).json().workspace.role).toBe(
      'member',
    );
  });

  it('accepts a link a moment before its 7 days end', async () => {
    const { owner, slug } = await team();
    const guest = await loggedInAgent(ctx.app, ctx.db);
    offset = -(INVITATION_TTL_MS - 60_000);
    const { token } = await invite(owner.agent, slug, guest.email);
    offset = 0;
    expect((await guest.agent.post('/api/invitations/accept', { token })).statusCode).toBe(200);
  });

  it('revokes an invitation: its link is refused; revoking twice or an unknown id is refused', async () => {
    const { owner, slug } = await team();
    const guest = await loggedInAgent(ctx.app, ctx.db);
    const { token, id } = await invite(owner.agent, slug, guest.email);
    expect((await owner.agent.delete(`/api/workspace/invitations/${id}`, inWs(slug))).json().message).toBe(
      'Invitation revoked.',
    );
    const r = await guest.agent.post('/api/invitations/accept', { token });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      code: 'INVALID_STATE',
      message: 'This invitation was revoked. Ask for a new one.',
    });
    expect((await owner.agent.get('/api/workspace/invitations', inWs(slug))).json().invitations).toEqual([]);
    const twice = await owner.agent.delete(`/api/workspace/invitations/${id}`, inWs(slug));
    expect(twice.statusCode).toBe(409);
    expect(
      (await owner.agent.post(`/api/workspace/invitations/${id}/resend`, {}, inWs(slug))).statusCode,
    ).toBe(409);
    expect(
      (await owner.agent.delete(`/api/workspace/invitations/${randomUUID()}`, inWs(slug))).statusCode,
    ).toBe(404);
    expect((await owner.agent.delete('/api/workspace/invitations/abc', inWs(slug))).statusCode).toBe(400);
    // Another workspace's invitation is not found from here.
    const other = await team();
    expect(
      (await other.owner.agent.delete(`/api/workspace/invitations/${id}`, inWs(other.slug))).statusCode,
    ).toBe(404);
  });

  it('refuses more than 50 pending invitations; expired ones do not count', async () => {
    const { owner, slug, id } = await team();
    const now = Date.now();
    await ctx.db.query(
      `insert into workspace_invitations
         (id, workspace_id, email, role, token_hash, invited_by, created_at, last_sent_at, expires_at)
       select gen_random_uuid(), $1, 'p' || n || '@example.com', 'member', md5(random()::text || n), $2, $3, $3,
              case when n = 1 then $4::timestamptz else $5::timestamptz end
         from generate_series(1, 51) n`,
      [id, owner.userId, new Date(now - HOUR), new Date(now - 1000), new Date(now + INVITATION_TTL_MS)],
    );
    const full = await owner.agent.post(
      '/api/workspace/invitations',
      { email: 'one-more@example.com', role: 'member' },
      inWs(slug),
    );
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'A workspace can have at most 50 pending invitations. Revoke some first.',
    });
    // The expired one cannot be renewed past the limit either; revoking one pending makes room.
    const expired = (await owner.agent.get('/api/workspace/invitations', inWs(slug)))
      .json()
      .invitations.find((i: { email: string }) => i.email === 'p1@example.com');
    expect(expired.expired).toBe(true);
    expect(
      (await owner.agent.post(`/api/workspace/invitations/${expired.id}/resend`, {}, inWs(slug))).statusCode,
    ).toBe(409);
    const p2 = (await owner.agent.get('/api/workspace/invitations', inWs(slug)))
      .json()
      .invitations.find((i: { email: string }) => i.email === 'p2@example.com');
    await owner.agent.delete(`/api/workspace/invitations/${p2.id}`, inWs(slug));
    expect((await invite(owner.agent, slug, 'one-more@example.com')).r.statusCode).toBe(201);
  });

  it('lets only one of several invitations made at once take the last pending place', async () => {
    const { owner, slug, id } = await team();
    await ctx.db.query(
      `insert into workspace_invitations
         (id, workspace_id, email, role, token_hash, invited_by, created_at, last_sent_at, expires_at)
       select gen_random_uuid(), $1, 'q' || n || '@example.com', 'member', md5(random()::text || n), $2, $3, $3, $4
         from generate_series(1, 49) n`,
      [id, owner.userId, new Date(Date.now() - HOUR), new Date(Date.now() + INVITATION_TTL_MS)],
    );
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        owner.agent.post(
          '/api/workspace/invitations',
          { email: `race${n}@example.com`, role: 'viewer' },
          inWs(slug),
        ),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const pending = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from workspace_invitations where workspace_id = $1',
      [id],
    );
    expect(pending.rows[0]!.n).toBe(50);
  });

  it('sends at most 20 invitation mails an hour per workspace, resends included; a resend waits 5 minutes', async () => {
    const { owner, slug, id } = await team();
    // The first 20 go an hour and a second ago (the app's clock moved back: sessions live on the real one).
    offset = -(HOUR + 1000);
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const { r, id } = await invite(owner.agent, slug, `r${n}-${randomUUID().slice(0, 6)}@example.com`);
      expect(r.statusCode).toBe(201);
      ids.push(id!);
    }
    const sent = ctx.mailer.sent.length;
    const over = await owner.agent.post(
      '/api/workspace/invitations',
      { email: 'r20@example.com', role: 'member' },
      inWs(slug),
    );
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'This workspace has sent 20 invitations in the last hour. Please try again later.',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3500);
    expect(ctx.mailer.sent.length).toBe(sent);
    // Another workspace has its own budget.
    const other = await team();
    expect((await invite(other.owner.agent, other.slug, 'r20@example.com')).r.statusCode).toBe(201);

    const soon = await owner.agent.post(`/api/workspace/invitations/${ids[0]}/resend`, {}, inWs(slug));
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toBe(
      'This invitation was sent moments ago. Please wait a few minutes before sending it again.',
    );

    // An hour later both go again; housekeeping forgets the mails older than the hour.
    offset = 0;
    expect(
      (await owner.agent.post(`/api/workspace/invitations/${ids[0]}/resend`, {}, inWs(slug))).statusCode,
    ).toBe(200);
    expect((await invite(owner.agent, slug, 'r20@example.com')).r.statusCode).toBe(201);
    await pruneExpired(ctx.db, clock());
    const left = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from workspace_invitation_mails where workspace_id = $1',
      [id],
    );
    expect(left.rows[0]!.n).toBe(2);
  });
});

describe('members', () => {
  it('lists names and roles to every member; addresses, activity and invitations to admins and owners', async () => {
    const { owner, slug, id } = await team();
    const viewer = await member(id, 'viewer');
    const admin = await member(id, 'admin');
    await invite(owner.agent, slug, 'pending@example.com', 'viewer');

    const seen = (await viewer.agent.get('/api/workspace/members', inWs(slug))).json();
    expect(seen.invitations).toBeUndefined();
    expect(seen.members).toHaveLength(3);
    for (const m of seen.members) {
      expect(Object.keys(m).sort()).toEqual(['firstName', 'lastName', 'role', 'userId', 'you']);
    }
    expect(seen.members.find((m: { you: boolean }) => m.you).userId).toBe(viewer.userId);

    const full = (await admin.agent.get('/api/workspace/members', inWs(slug))).json();
    expect(full.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin', 'viewer']);
    expect(full.members[0]).toMatchObject({ email: owner.email, firstName: 'Olive' });
    // Everyone here has made a request, which records their activity.
    for (const m of full.members) expect(m.lastActiveAt).toEqual(expect.any(String));
    expect(full.invitations).toMatchObject([
      { email: 'pending@example.com', role: 'viewer', invitedBy: 'Olive Tester', expired: false },
    ]);
    expect((await viewer.agent.get('/api/workspace/invitations', inWs(slug))).statusCode).toBe(403);
  });

  it('records last activity at most once a minute per member', async () => {
    const { owner, slug, id } = await team();
    const at = async () =>
      (
        await ctx.db.query<{ t: Date | null }>(
          'select last_active_at as t from workspace_members where workspace_id = $1 and user_id = $2',
          [id, owner.userId],
        )
      ).rows[0]!.t;
    await ctx.db.query(
      `update workspace_members set last_active_at = now() - interval '30 seconds' where workspace_id = $1`,
      [id],
    );
    const recent = await at();
    await owner.agent.get('/api/workspace/members', inWs(slug));
    expect(await at()).toEqual(recent);
    await ctx.db.query(
      `update workspace_members set last_active_at = now() - interval '2 minutes' where workspace_id = $1`,
      [id],
    );
    const old = await at();
    await owner.agent.get('/api/workspace/members', inWs(slug));
    expect((await at())!.getTime()).toBeGreaterThan(old!.getTime());
  });

  it('lets an admin manage members and invitations but not owners; an owner hands ownership over', async () => {
    const { owner, slug, id } = await team();
    const admin = await member(id, 'admin');
    const m = await member(id, 'member');
    const co = await member(id, 'owner');
    const patch = (a: Agent, userId: string, role: string) =>
      a.patch(`/api/workspace/members/${userId}`, { role }, inWs(slug));
    const expectNotOwners = (r: { statusCode: number; json: () => unknown }) => {
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only owners can change, remove or invite owners.',
      });
    };

    expectNotOwners(
      await admin.agent.post(
        '/api/workspace/invitations',
        { email: 'x@example.com', role: 'owner' },
        inWs(slug),
      ),
    );
    expectNotOwners(await patch(admin.agent, co.userId, 'member'));
    expectNotOwners(await patch(admin.agent, m.userId, 'owner'));
    expectNotOwners(await admin.agent.delete(`/api/workspace/members/${co.userId}`, inWs(slug)));
    const ownersInvite = await invite(
      owner.agent,
      slug,
      `o-${randomUUID().slice(0, 6)}@example.com`,
      'owner',
    );
    expect(ownersInvite.r.statusCode).toBe(201);
    expectNotOwners(await admin.agent.delete(`/api/workspace/invitations/${ownersInvite.id}`, inWs(slug)));

    expect((await patch(admin.agent, m.userId, 'viewer')).json().message).toBe('Role changed.');
    expect(await roleIn(id, m.userId)).toBe('viewer');
    expect(
      (await invite(admin.agent, slug, `a-${randomUUID().slice(0, 6)}@example.com`, 'admin')).r.statusCode,
    ).toBe(201);
    expect((await admin.agent.delete(`/api/workspace/members/${m.userId}`, inWs(slug))).json().message).toBe(
      'Member removed.',
    );
    expect(await roleIn(id, m.userId)).toBeUndefined();
    expect((await admin.agent.delete(`/api/workspace/members/${m.userId}`, inWs(slug))).statusCode).toBe(404);
    expect((await patch(admin.agent, randomUUID(), 'viewer')).statusCode).toBe(404);
    expect((await patch(admin.agent, 'nope', 'viewer')).statusCode).toBe(400);
    expect((await patch(admin.agent, co.userId, 'chief')).statusCode).toBe(400);

    // The owner makes the admin an owner, then steps down to admin themself.
    expect((await patch(owner.agent, admin.userId, 'owner')).statusCode).toBe(200);
    expect((await patch(owner.agent, owner.userId, 'admin')).statusCode).toBe(200);
    expect(await roleIn(id, owner.userId)).toBe('admin');
    expect((await owner.agent.patch('/api/workspace', { name: 'Mine' }, inWs(slug))).statusCode).toBe(403);
    // The new owner removes the other owner.
    expect((await admin.agent.delete(`/api/workspace/members/${co.userId}`, inWs(slug))).statusCode).toBe(
      200,
    );
  });

  it('refuses members and viewers every management route, and non-members with 404, logged out with 401', async () => {
    const { owner, slug, id } = await team();
    const m = await member(id, 'member');
    const v = await member(id, 'viewer');
    const { id: invitationId } = await invite(owner.agent, slug, 'someone@example.com');
    for (const p of [m, v]) {
      const calls = [
        p.agent.get('/api/workspace/invitations', inWs(slug)),
        p.agent.post('/api/workspace/invitations', { email: 'z@example.com', role: 'viewer' }, inWs(slug)),
        p.agent.post(`/api/workspace/invitations/${invitationId}/resend`, {}, inWs(slug)),
        p.agent.delete(`/api/workspace/invitations/${invitationId}`, inWs(slug)),
        p.agent.patch(`/api/workspace/members/${owner.userId}`, { role: 'viewer' }, inWs(slug)),
        p.agent.delete(`/api/workspace/members/${owner.userId}`, inWs(slug)),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.statusCode).toBe(403);
        expect(r.json().code).toBe('FORBIDDEN');
      }
      expect((await p.agent.get('/api/workspace/members', inWs(slug))).statusCode).toBe(200);
    }

    const stranger = await loggedInAgent(ctx.app, ctx.db);
    const anon = new Agent(ctx.app);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/workspace/members'],
      ['PATCH', `/api/workspace/members/${m.userId}`, { role: 'viewer' }],
      ['DELETE', `/api/workspace/members/${m.userId}`],
      ['POST', '/api/workspace/leave'],
      ['GET', '/api/workspace/invitations'],
      ['POST', '/api/workspace/invitations', { email: 'z@example.com', role: 'viewer' }],
      ['POST', `/api/workspace/invitations/${invitationId}/resend`],
      ['DELETE', `/api/workspace/invitations/${invitationId}`],
    ];
    for (const [method, url, payload] of routes) {
      const asStranger = await stranger.agent.request({
        method: method as 'GET',
        url,
        payload: payload as object,
        ...inWs(slug),
      });
      expect([url, asStranger.statusCode]).toEqual([url, 404]);
      const asAnon = await anon.request({
        method: method as 'GET',
        url,
        payload: payload as object,
        ...inWs(slug),
      });
      expect([url, asAnon.statusCode]).toEqual([url, 401]);
    }
    // An unverified account is refused before anything else.
    const unverified = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.agent.get('/api/workspace/members')).json().code).toBe('EMAIL_NOT_VERIFIED');
  });

  it('keeps at least one owner: the last owner cannot leave, be demoted or removed', async () => {
    const { owner, slug, id } = await team();
    const admin = await member(id, 'admin');
    const refusals = [
      await owner.agent.post('/api/workspace/leave', {}, inWs(slug)),
      await owner.agent.delete(`/api/workspace/members/${owner.userId}`, inWs(slug)),
      await owner.agent.patch(`/api/workspace/members/${owner.userId}`, { role: 'admin' }, inWs(slug)),
    ];
    for (const r of refusals) {
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('INVALID_STATE');
    }
    expect(refusals[0]!.json().message).toBe(
      'You are the last owner. A workspace needs at least one owner. Make someone else owner first, or delete the workspace.',
    );
    expect(refusals[2]!.json().message).toBe(
      'A workspace needs at least one owner. Make someone else owner first, or delete the workspace.',
    );
    expect(await roleIn(id, owner.userId)).toBe('owner');

    // Anyone else leaves freely, and with a second owner the first may go too.
    expect((await admin.agent.post('/api/workspace/leave', {}, inWs(slug))).json().message).toMatch(
      /^You left /,
    );
    const co = await member(id, 'owner');
    expect((await owner.agent.post('/api/workspace/leave', {}, inWs(slug))).statusCode).toBe(200);
    expect(await roleIn(id, owner.userId)).toBeUndefined();
    expect((await co.agent.get('/api/workspace/members', inWs(slug))).json().members).toHaveLength(1);
  });

  it('refuses a removed member at once, in every open session', async () => {
    const { owner, slug, id } = await team();
    const m = await member(id, 'member');
    const second = new Agent(ctx.app);
    expect((await second.post('/auth/login', { email: m.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    for (const a of [m.agent, second]) expect((await a.get('/api/uploads', inWs(slug))).statusCode).toBe(200);

    expect((await owner.agent.delete(`/api/workspace/members/${m.userId}`, inWs(slug))).statusCode).toBe(200);
    for (const a of [m.agent, second]) {
      const r = await a.get('/api/uploads', inWs(slug));
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe('Workspace not found.');
      expect((await a.get('/api/workspace/members', inWs(slug))).statusCode).toBe(404);
    }
    // Their own workspace still opens.
    expect((await second.get('/api/workspace')).json().role).toBe('owner');
  });
});

describe('when the invitation mail cannot be sent', () => {
  it('keeps the invitation and says to resend it', async () => {
    const failing = await createTestContext({
      deps: {
        mailer: {
          send: () => Promise.reject(new Error('smtp down')),
        },
      },
    });
    try {
      const owner = await loggedInAgent(failing.app, failing.db);
      const r = await owner.agent.post('/api/workspace/invitations', {
        email: 'x@example.com',
        role: 'viewer',
      });
      expect(r.statusCode).toBe(502);
      expect(r.json()).toMatchObject({
        code: 'UPSTREAM_FAILED',
        message: 'The invitation is saved but its email could not be sent. Try Resend in a moment.',
      });
      const list = (await owner.agent.get('/api/workspace/invitations')).json().invitations;
      expect(list).toMatchObject([{ email: 'x@example.com', role: 'viewer' }]);
    } finally {
      await failing.close();
    }
  });
});
