import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('mapping templates', () => {
  it('creates, lists, reads, updates, renames and deletes a template', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const created = await agent.post('/api/mappings', {
      name: 'CRM export',
      mappings: { Email: 'email' },
      hardcoded: { action_source: 'physical_store' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'CRM export', message: 'Mapping saved as new!' });
    const id = created.json().id;
    expect((await agent.get('/api/mappings')).json()).toEqual([{ id, name: 'CRM export' }]);
    expect((await agent.get(`/api/mappings/${id}`)).json()).toMatchObject({
      mappings: { Email: 'email' },
      hardcoded: { action_source: 'physical_store' },
    });
    expect(
      (await agent.patch(`/api/mappings/${id}`, { mappings: { Mail: 'email' }, hardcoded: {} })).json()
        .message,
    ).toBe('Template updated!');
    expect((await agent.get(`/api/mappings/${id}`)).json().mappings).toEqual({ Mail: 'email' });
    expect((await agent.patch(`/api/mappings/${id}`, { name: 'Store sales' })).json().message).toBe(
      'Mapping renamed!',
    );
    expect((await agent.delete(`/api/mappings/${id}`)).json().message).toBe('Mapping deleted!');
    expect((await agent.get(`/api/mappings/${id}`)).statusCode).toBe(404);
  });

  it('limits names to 20 characters and keeps them unique per user', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const long = await agent.post('/api/mappings', { name: 'x'.repeat(21), mappings: {} });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Template name must be 20 characters or fewer.');
    expect((await agent.post('/api/mappings', { name: '  ', mappings: {} })).json().message).toBe(
      'Template name is required.',
    );
    await agent.post('/api/mappings', { name: 'Leads', mappings: {} });
    const dup = await agent.post('/api/mappings', { name: 'leads', mappings: {} });
    expect(dup.statusCode).toBe(409);
    const other = await loggedInAgent(ctx.app, ctx.db);
    expect((await other.agent.post('/api/mappings', { name: 'Leads', mappings: {} })).statusCode).toBe(201);
  });

  it('guards every call: 401, 403 without XSRF, 404 for another user', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = (await a.agent.post('/api/mappings', { name: 'Mine', mappings: {} })).json().id;
    expect((await new Agent(ctx.app).get('/api/mappings')).statusCode).toBe(401);
    expect(
      (await a.agent.post('/api/mappings', { name: 'X', mappings: {} }, { xsrf: false })).statusCode,
    ).toBe(403);
    for (const r of [
      await b.agent.get(`/api/mappings/${id}`),
      await b.agent.patch(`/api/mappings/${id}`, { name: 'Stolen' }),
      await b.agent.patch(`/api/mappings/${id}`, { mappings: {}, hardcoded: {} }),
      await b.agent.delete(`/api/mappings/${id}`),
    ])
      expect(r.statusCode).toBe(404);
    expect((await b.agent.get('/api/mappings')).json()).toEqual([]);
    expect((await a.agent.get(`/api/mappings/${id}`)).json().name).toBe('Mine');
  });

  it('ignores unknown and ownership fields when renaming or updating, and never moves a template', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = (await a.agent.post('/api/mappings', { name: 'Echo', mappings: { Email: 'email' } })).json()
      .id;
    const rename = await a.agent.patch(`/api/mappings/${id}`, {
      id: 'other-id',
      userId: b.userId,
      name: 'Echoed',
      createdAt: 'x',
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().message).toBe('Mapping renamed!');
    const update = await a.agent.patch(`/api/mappings/${id}`, {
      id,
      userId: b.userId,
      mappings: { Mail: 'email' },
      hardcoded: {},
      extra: true,
    });
    expect(update.json().message).toBe('Template updated!');
    expect((await a.agent.get(`/api/mappings/${id}`)).json()).toMatchObject({
      id,
      name: 'Echoed',
      mappings: { Mail: 'email' },
    });
    expect((await b.agent.get('/api/mappings')).json()).toEqual([]);
    const empty = await a.agent.patch(`/api/mappings/${id}`, { userId: b.userId });
    expect(empty.statusCode).toBe(400);
  });
});
