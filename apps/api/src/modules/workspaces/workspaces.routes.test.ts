import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceRole } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const inWs = (slug: string) => ({ headers: { 'x-workspace': slug } });

async function join(workspaceId: string, userId: string, role: WorkspaceRole) {
  await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

describe('workspaces', () => {
  it('signup creates the first workspace, named for the company, owned by the new user', async () => {
    const agent = new Agent(ctx.app);
    const email = 'founder@example.com';
    expect(
      (
        await agent.post('/auth/signup', {
          email,
          firstName: 'Fay',
          lastName: 'Founder',
          password: 'Str0ng!Passw0rd',
          company: 'Acme Plumbing',
        })
      ).statusCode,
    ).toBe(202);
    const r = await ctx.db.query<{ name: string; slug: string; role: string; same: boolean }>(
      `select w.name, w.slug, m.role, w.id = u.id as same from users u
         join workspace_members m on m.user_id = u.id join workspaces w on w.id = m.workspace_id
        where u.email = $1`,
      [email],
    );
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ name: 'Acme Plumbing', role: 'owner', same: true });
    expect(r.rows[0]!.slug).toMatch(/^acme-plumbing-[0-9a-f]{8}$/);
  });

  it('lists, creates and opens workspaces; each keeps its own data apart', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const first = (await agent.get('/api/workspaces')).json();
    expect(first.workspaces).toHaveLength(1);
    expect(first.current).toBe(first.workspaces[0].slug);

    const created = await agent.post('/api/workspaces', { name: '  Client B  ' });
    expect(created.statusCode).toBe(201);
    const b = created.json().workspace;
    expect(b).toMatchObject({ name: 'Client B', role: 'owner' });
    expect(b.slug).toMatch(/^client-b-[0-9a-f]{8}$/);
    // A new workspace becomes the current one.
    expect((await agent.get('/api/workspaces')).json().current).toBe(b.slug);

    const a = first.workspaces[0].slug;
    expect(
      (await agent.post('/api/mappings', { name: 'In A', mappings: {}, hardcoded: {} }, inWs(a))).statusCode,
    ).toBe(201);
    expect((await agent.get('/api/mappings', inWs(a))).json().map((t: { name: string }) => t.name)).toEqual([
      'In A',
    ]);
    expect((await agent.get('/api/mappings', inWs(b.slug))).json()).toEqual([]);
    // Without the header: the current workspace (B, just created).
    expect((await agent.get('/api/mappings')).json()).toEqual([]);
    expect((await agent.get('/api/workspace', inWs(a))).json()).toMatchObject({ slug: a, role: 'owner' });

    expect(
      (await agent.request({ method: 'PUT', url: '/api/workspaces/current', payload: { slug: a } }))
        .statusCode,
    ).toBe(204);
    expect((await agent.get('/api/mappings')).json()).toHaveLength(1);
  });

  it('answers 404 for a workspace the user is not in, the same as for one that does not exist', async () => {
    const { agent: alice } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: bob } = await loggedInAgent(ctx.app, ctx.db);
    const bobs = (await bob.get('/api/workspaces')).json().workspaces[0].slug;
    const theirs = await alice.get('/api/mappings', inWs(bobs));
    const nowhere = await alice.get('/api/mappings', inWs('no-such-workspace'));
    expect(theirs.statusCode).toBe(404);
    const { code, message } = nowhere.json();
    expect(theirs.json()).toMatchObject({ code, message: 'Workspace not found.' });
    expect(message).toBe('Workspace not found.');
    expect((await alice.get('/api/uploads', inWs('Bad Slug!'))).statusCode).toBe(404);
    expect(
      (await alice.request({ method: 'PUT', url: '/api/workspaces/current', payload: { slug: bobs } }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses by role: a viewer reads, a member sends but manages no pixel accounts, only an owner renames', async () => {
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: viewer, userId: viewerId } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: member, userId: memberId } = await loggedInAgent(ctx.app, ctx.db);
    const slug = (await owner.get('/api/workspaces')).json().workspaces[0].slug;
    await join(ownerId, viewerId, 'viewer');
    await join(ownerId, memberId, 'member');

    expect((await viewer.get('/api/uploads', inWs(slug))).statusCode).toBe(200);
    expect((await viewer.get('/api/mappings', inWs(slug))).statusCode).toBe(200);
    const write = await viewer.post('/api/mappings', { name: 'No', mappings: {}, hardcoded: {} }, inWs(slug));
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'FORBIDDEN' });

    expect(
      (await member.post('/api/mappings', { name: 'Yes', mappings: {}, hardcoded: {} }, inWs(slug)))
        .statusCode,
    ).toBe(201);
    const pixel = { name: 'P', pixelId: '123456789', accessToken: 'EAAB-token-123456' };
    expect((await member.post('/api/meta/accounts', pixel, inWs(slug))).statusCode).toBe(403);
    expect((await owner.post('/api/meta/accounts', pixel, inWs(slug))).statusCode).toBe(201);
    expect((await member.get('/api/meta/accounts', inWs(slug))).json()).toHaveLength(1);

    expect((await member.patch('/api/workspace', { name: 'Renamed' }, inWs(slug))).statusCode).toBe(403);
    expect((await owner.patch('/api/workspace', { name: 'Renamed' }, inWs(slug))).json().message).toBe(
      'Workspace renamed.',
    );
    expect((await viewer.get('/api/workspace', inWs(slug))).json()).toMatchObject({
      name: 'Renamed',
      role: 'viewer',
    });

    // Membership is read on every request: removed, the next call is refused.
    await ctx.db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [
      ownerId,
      viewerId,
    ]);
    expect((await viewer.get('/api/uploads', inWs(slug))).statusCode).toBe(404);
  });

  it('deletes a workspace with everything in it when the owner types its name', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const w = (await agent.post('/api/workspaces', { name: 'Gone Soon' })).json().workspace;
    await agent.post('/api/mappings', { name: 'T', mappings: {}, hardcoded: {} }, inWs(w.slug));
    const wrong = await agent.request({
      method: 'DELETE',
      url: '/api/workspace',
      payload: { confirm: 'Gone' },
      ...inWs(w.slug),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ confirm: 'Type the workspace name to confirm.' });
    const ok = await agent.request({
      method: 'DELETE',
      url: '/api/workspace',
      payload: { confirm: 'Gone Soon' },
      ...inWs(w.slug),
    });
    expect(ok.json().message).toBe('Workspace deleted.');
    expect(
      (await ctx.db.query('select 1 from mapping_templates where workspace_id = $1', [w.id])).rows,
    ).toEqual([]);
    // The first workspace is current again (the deleted one was).
    expect((await agent.get('/api/workspaces')).json()).toMatchObject({
      current: expect.stringMatching(/^test-/),
    });
    expect((await ctx.db.query('select 1 from workspaces where id = $1', [userId])).rows).toHaveLength(1);
  });

  it('guards every call: 401 logged out, 403 without XSRF or unverified, 400 for a bad name', async () => {
    const anon = new Agent(ctx.app);
    expect((await anon.get('/api/workspaces')).statusCode).toBe(401);
    expect((await anon.get('/api/workspace')).statusCode).toBe(401);
    expect((await anon.post('/api/workspaces', { name: 'X' })).statusCode).toBe(401);
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    expect((await agent.post('/api/workspaces', { name: 'X' }, { xsrf: false })).statusCode).toBe(403);
    expect((await agent.patch('/api/workspace', { name: 'X' }, { xsrf: false })).statusCode).toBe(403);
    const blank = await agent.post('/api/workspaces', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ name: 'Workspace name is required.' });
    expect((await agent.post('/api/workspaces', { name: 'x'.repeat(81) })).statusCode).toBe(400);
    const { agent: unverified } = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.get('/api/workspaces')).statusCode).toBe(403);
    expect((await unverified.get('/api/uploads')).statusCode).toBe(403);
  });

  it("lets only the owner change the workspace's address: format, unique, the old address then 404", async () => {
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: admin, userId: adminId } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: other } = await loggedInAgent(ctx.app, ctx.db);
    const slug = (await owner.get('/api/workspaces')).json().workspaces[0].slug as string;
    const taken = (await other.get('/api/workspaces')).json().workspaces[0].slug as string;
    await join(ownerId, adminId, 'admin');

    expect((await new Agent(ctx.app).patch('/api/workspace/slug', { slug: 'acme' })).statusCode).toBe(401);
    expect((await owner.patch('/api/workspace/slug', { slug: 'acme' }, { xsrf: false })).statusCode).toBe(
      403,
    );
    expect((await admin.patch('/api/workspace/slug', { slug: 'acme' }, inWs(slug))).statusCode).toBe(403);
    for (const bad of ['', 'ab', 'Acme Agency', '-acme', 'acme-', 'acme_co', 'x'.repeat(61)]) {
      const r = await owner.patch('/api/workspace/slug', { slug: bad }, inWs(slug));
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().fields.slug, bad).toMatch(/^(Address is required\.|Use 3 to 60 lower-case letters)/);
    }
    const clash = await owner.patch('/api/workspace/slug', { slug: taken }, inWs(slug));
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ fields: { slug: 'This address is taken. Choose another.' } });

    const fresh = `acme-${ownerId.slice(0, 8)}`;
    const moved = await owner.patch('/api/workspace/slug', { slug: ` ${fresh} ` }, inWs(slug));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ slug: fresh, message: 'Workspace address changed.' });
    // The same address again changes nothing.
    expect((await owner.patch('/api/workspace/slug', { slug: fresh }, inWs(fresh))).statusCode).toBe(200);

    // The old address names no workspace, for every member; the new one opens it.
    expect((await admin.get('/api/uploads', inWs(slug))).statusCode).toBe(404);
    expect((await admin.get('/api/workspace', inWs(fresh))).json()).toMatchObject({
      slug: fresh,
      role: 'admin',
    });
    const log = (await owner.get('/api/workspace/activity?kind=workspace.slug_changed', inWs(fresh))).json();
    expect(log.entries).toEqual([
      expect.objectContaining({ subject: fresh, details: { from: slug }, actorUserId: ownerId }),
    ]);
  });

  it('refuses to delete an account that alone owns a workspace others are in', async () => {
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db);
    const { userId: mateId } = await loggedInAgent(ctx.app, ctx.db);
    await join(ownerId, mateId, 'member');
    const r = await owner.delete('/auth/delete-account');
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toMatch(
      /^You are the only owner of the workspace "Test", which has other members\./,
    );
    await ctx.db.query("update workspace_members set role = 'owner' where user_id = $1", [mateId]);
    expect((await owner.delete('/auth/delete-account')).statusCode).toBe(200);
    // The workspace stays with its other owner.
    expect((await ctx.db.query('select 1 from workspaces where id = $1', [ownerId])).rows).toHaveLength(1);
  });
});
