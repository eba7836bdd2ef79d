import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_SCOPES,
  roleAtLeast,
  SCOPE_ROLE,
  WORKSPACE_ROLES,
  type ApiKeyScope,
  type WorkspaceRole,
} from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../test/context.ts';
import { Agent, loggedInAgent } from '../test/agent.ts';
import { createKey } from './modules/api-keys/api-keys.service.ts';

/**
 * Every route the app answers × every workspace role × the member's own workspace and another one (issue 31).
 * Each route's expected answer is one entry below: a route added without an entry fails this suite.
 *
 * - 'public': answers without a session.
 * - 'account': the user's own (a session, no workspace): 401 logged out.
 * - a role: the least workspace role that may call it. In the own workspace, a lower role is refused 403 before
 *   the body is read, and an allowed one passes the guard (the random ids and empty bodies then answer 404 or
 *   400 from the route itself). In a workspace the user is not in, every role gets the 404 a missing workspace
 *   gets: 0 cross-workspace reads or writes.
 * - a key scope (`key:read`, `key:send`, `key:admin`): a /api/v1 route, called with an API key of at least that
 *   scope (decision 0113). No key, or only a session cookie, is a 401; a lower scope a 403 before the body is
 *   read; a workspace header naming another workspace changes nothing (a key acts in its own only).
 */
type KeyNeed = `key:${ApiKeyScope}`;
const ROUTES: Record<string, 'public' | 'account' | WorkspaceRole | KeyNeed> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /metrics': 'public',
  'GET /sitemap.xml': 'public',
  'GET /robots.txt': 'public',
  'GET /api/config': 'public',
  'GET /api/captcha/dev': 'public',
  'POST /api/contact': 'public',
  'POST /api/automation-waitlist': 'public',
  'POST /api/audit': 'public',
  'POST /api/analytics': 'public',
  'GET /auth/me': 'public',
  'POST /auth/signup': 'public',
  'POST /auth/login': 'public',
  'POST /auth/logout': 'public',
  'GET /auth/verify': 'public',
  'POST /auth/forgot-password': 'public',
  'POST /auth/reset-password': 'public',
  'POST /auth/resend-verification': 'account',
  'POST /auth/update-profile': 'account',
  'POST /auth/change-password': 'account',
  'DELETE /auth/delete-account': 'account',
  'GET /api/workspaces': 'account',
  'POST /api/workspaces': 'account',
  'PUT /api/workspaces/current': 'account',

  'GET /api/invitations/preview': 'account',
  'POST /api/invitations/accept': 'account',

  'GET /api/workspace': 'viewer',
  'PATCH /api/workspace': 'owner',
  'PATCH /api/workspace/slug': 'owner',
  'DELETE /api/workspace': 'owner',
  'GET /api/workspace/members': 'viewer',
  'PATCH /api/workspace/members/:userId': 'admin',
  // Removing another member (a random id here) needs admin; anyone may remove themself (members tests).
  'DELETE /api/workspace/members/:userId': 'admin',
  'POST /api/workspace/leave': 'viewer',
  'GET /api/workspace/invitations': 'admin',
  'POST /api/workspace/invitations': 'admin',
  'POST /api/workspace/invitations/:id/resend': 'admin',
  'DELETE /api/workspace/invitations/:id': 'admin',
  'GET /api/workspace/activity': 'admin',
  'GET /api/workspace/activity.csv': 'admin',
  'GET /api/workspace/activity/people': 'admin',
  'GET /api/webhooks': 'admin',
  'POST /api/webhooks': 'admin',
  'PATCH /api/webhooks/:id': 'admin',
  'DELETE /api/webhooks/:id': 'admin',
  'POST /api/webhooks/:id/rotate-secret': 'admin',
  'POST /api/webhooks/:id/test': 'admin',
  'GET /api/webhooks/:id/deliveries': 'admin',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'admin',
  'GET /api/insights': 'viewer',

  'GET /api/uploads': 'viewer',
  'POST /api/upload': 'member',
  'GET /api/uploads/:id': 'viewer',
  'DELETE /api/uploads/:id': 'member',
  'GET /api/uploads/:id/headers': 'member',
  'PATCH /api/uploads/:id/status': 'member',
  'PUT /api/uploads/:id/refund-rows': 'member',
  'POST /api/uploads/:id/fixed': 'member',
  'POST /api/uploads/tus': 'member',
  'PATCH /api/uploads/tus/:id': 'member',
  'DELETE /api/uploads/tus/:id': 'member',
  'GET /api/uploads/tus/:id': 'member',
  'GET /api/uploads/:id/validate': 'member',
  'GET /api/uploads/:id/validate/report.csv': 'member',
  'GET /api/uploads/:id/skipped-rows.csv': 'member',
  'GET /api/uploads/:id/prepare': 'member',
  'GET /api/uploads/:id/preview': 'member',
  'GET /api/uploads/:id/preview/full': 'member',
  'POST /api/uploads/:id/jobs/:kind': 'member',
  'GET /api/uploads/:id/jobs/:kind': 'member',
  'POST /api/uploads/:id/send': 'member',
  'POST /api/uploads/:id/send/retry': 'member',
  'GET /api/uploads/:id/summary': 'viewer',
  'GET /api/uploads/:id/batches': 'viewer',
  'GET /api/uploads/:id/failed-rows': 'member',
  'GET /api/uploads/:id/delivered': 'member',
  'GET /api/uploads/:id/suggested-account': 'member',
  'GET /api/uploads/:id/batches/:batchId/download-original': 'member',

  'GET /api/mappings': 'viewer',
  'GET /api/mappings/:id': 'viewer',
  'POST /api/mappings': 'member',
  'PATCH /api/mappings/:id': 'member',
  'DELETE /api/mappings/:id': 'admin',

  'GET /api/meta/accounts': 'viewer',
  'POST /api/meta/accounts': 'admin',
  'PATCH /api/meta/accounts/:id': 'admin',
  'POST /api/meta/accounts/:id/test': 'admin',
  'DELETE /api/meta/accounts/:id': 'admin',

  'GET /api/sources': 'viewer',
  'POST /api/sources': 'admin',
  'POST /api/sources/test-fetch': 'admin',
  'GET /api/sources/:id': 'viewer',
  'PATCH /api/sources/:id': 'admin',
  'DELETE /api/sources/:id': 'admin',
  'GET /api/sources/:id/uploads': 'viewer',
  'GET /api/sources/:id/runs': 'viewer',
  'POST /api/sources/:id/pause': 'member',
  'POST /api/sources/:id/resume': 'member',
  'POST /api/sources/:id/run': 'member',

  'GET /api/workspace/api-keys': 'admin',
  'POST /api/workspace/api-keys': 'admin',
  'DELETE /api/workspace/api-keys/:id': 'admin',

  'GET /api/v1/workspace': 'key:read',
  'POST /api/v1/uploads/tus': 'key:send',
  'PATCH /api/v1/uploads/tus/:id': 'key:send',
  'DELETE /api/v1/uploads/tus/:id': 'key:send',
  'GET /api/v1/uploads/tus/:id': 'key:send',
  'GET /api/v1/uploads': 'key:read',
  'POST /api/v1/uploads': 'key:send',
  'GET /api/v1/uploads/:id': 'key:read',
  'DELETE /api/v1/uploads/:id': 'key:send',
  'PUT /api/v1/uploads/:id/mapping': 'key:send',
  'POST /api/v1/uploads/:id/jobs/:kind': 'key:send',
  'GET /api/v1/uploads/:id/jobs/:kind': 'key:send',
  'POST /api/v1/uploads/:id/send': 'key:send',
  'GET /api/v1/uploads/:id/summary': 'key:read',
  'GET /api/v1/uploads/:id/failed-rows': 'key:send',
  'GET /api/v1/pixel-accounts': 'key:read',
  'POST /api/v1/pixel-accounts': 'key:admin',
  'PUT /api/v1/pixel-accounts/:id/token': 'key:admin',
  'GET /api/v1/templates': 'key:read',
  'GET /api/v1/templates/:id': 'key:read',
  'GET /api/v1/sources': 'key:read',
  'GET /api/v1/sources/:id/runs': 'key:read',
  'POST /api/v1/sources/:id/run': 'key:send',
  'POST /api/v1/sources/:id/pause': 'key:send',
  'POST /api/v1/sources/:id/resume': 'key:send',
  'POST /api/v1/events': 'key:send',
  'GET /api/v1/openapi.json': 'public',
};

const isKeyNeed = (v: string): v is KeyNeed => v.startsWith('key:');

let ctx: TestContext;
let members: Record<WorkspaceRole, Agent>;
let own: string;
let other: string;
let ownerId: string;
const memberIds = new Map<WorkspaceRole, string>();
const secrets = {} as Record<ApiKeyScope, string>;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await loggedInAgent(ctx.app, ctx.db);
  own = (await owner.agent.get('/api/workspaces')).json().current;
  const stranger = await loggedInAgent(ctx.app, ctx.db);
  other = (await stranger.agent.get('/api/workspaces')).json().current;
  const join = async (role: WorkspaceRole) => {
    const m = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
      owner.userId,
      m.userId,
      role,
    ]);
    return m.agent;
  };
  members = {
    owner: owner.agent,
    admin: await join('admin'),
    member: await join('member'),
    viewer: await join('viewer'),
  };
  ownerId = owner.userId;
  for (const scope of API_KEY_SCOPES)
    secrets[scope] = (await createKey(ctx.db, ownerId, ownerId, { name: scope, scope })).secret;
  for (const role of ['admin', 'member', 'viewer'] as const)
    memberIds.set(role, (await members[role].get('/auth/me')).json().user.id as string);
});

/** Puts every member back in its role: a route a member may call on itself (leave) takes it out. */
async function restoreMembers() {
  for (const [role, id] of memberIds)
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)
       on conflict (workspace_id, user_id) do update set role = excluded.role`,
      [ownerId, id, role],
    );
}
afterAll(() => ctx.close());

const path = (url: string) =>
  url.replace(':kind', 'validate').replace(/:(id|batchId|userId)/g, () => randomUUID());

function call(agent: Agent, key: string, workspace?: string, apiKey?: string) {
  const [method, url] = key.split(' ') as [string, string];
  return agent.request({
    method: method as 'GET',
    url: path(url),
    headers: {
      ...(workspace ? { 'x-workspace': workspace } : {}),
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    ...(method === 'GET' || method === 'HEAD' ? {} : { payload: {} }),
  });
}

describe('the role matrix', () => {
  it('has an entry for every route the app answers, and none for a route it does not', () => {
    const answered = ctx.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(answered.filter((k) => !(k in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((k) => !answered.includes(k))).toEqual([]);
  });

  const workspaceRoutes = Object.entries(ROUTES).filter(
    (e): e is [string, WorkspaceRole] => e[1] !== 'public' && e[1] !== 'account' && !isKeyNeed(e[1]),
  );

  it.each(workspaceRoutes)('%s needs %s', async (key, least) => {
    expect((await call(new Agent(ctx.app), key, own)).statusCode, 'logged out').toBe(401);
    for (const role of WORKSPACE_ROLES) {
      await restoreMembers();
      const inOwn = await call(members[role], key, own);
      // A CSV download answers text: only an error is JSON.
      const body = (inOwn.headers['content-type']?.toString().includes('json') ? inOwn.json() : {}) as {
        code?: string;
        message?: string;
      };
      if (roleAtLeast(role, least)) {
        expect(inOwn.statusCode, `${role} in its workspace`).not.toBe(401);
        expect(body.code, `${role} in its workspace`).not.toBe('FORBIDDEN');
        expect(body.message, `${role} in its workspace`).not.toBe('Workspace not found.');
        expect(inOwn.statusCode, `${role} in its workspace`).toBeLessThan(500);
      } else {
        expect([inOwn.statusCode, body.code], `${role} in its workspace`).toEqual([403, 'FORBIDDEN']);
      }
      const inOther = await call(members[role], key, other);
      expect([inOther.statusCode, inOther.json().message], `${role} in another workspace`).toEqual([
        404,
        'Workspace not found.',
      ]);
    }
  });

  it.each(Object.entries(ROUTES).filter((e): e is [string, KeyNeed] => isKeyNeed(e[1])))(
    '%s needs an API key of scope %s',
    async (key, need) => {
      const least = need.slice(4) as ApiKeyScope;
      const plain = await call(new Agent(ctx.app), key);
      expect([plain.statusCode, plain.json().code], 'no key').toEqual([401, 'UNAUTHENTICATED']);
      expect((await call(members.owner, key, own)).statusCode, 'an owner’s session').toBe(401);
      for (const scope of API_KEY_SCOPES) {
        const res = await call(new Agent(ctx.app), key, other, secrets[scope]);
        const body = (res.headers['content-type']?.toString().includes('json') ? res.json() : {}) as {
          code?: string;
        };
        if (roleAtLeast(SCOPE_ROLE[scope], SCOPE_ROLE[least])) {
          expect(res.statusCode, scope).not.toBe(401);
          expect(body.code, scope).not.toBe('FORBIDDEN');
          expect(res.statusCode, scope).toBeLessThan(500);
        } else {
          expect([res.statusCode, body.code], scope).toEqual([403, 'FORBIDDEN']);
        }
      }
    },
  );

  it.each(Object.entries(ROUTES).filter(([, v]) => v === 'account'))(
    '%s is the account’s own',
    async (key) => {
      expect((await call(new Agent(ctx.app), key)).statusCode).toBe(401);
    },
  );

  it.each(Object.entries(ROUTES).filter(([, v]) => v === 'public'))(
    '%s answers without a session',
    async (key) => {
      expect((await call(new Agent(ctx.app), key)).statusCode).not.toBe(401);
    },
  );
});
