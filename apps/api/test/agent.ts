import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Db } from '../src/db/db.ts';
import { insertFirstWorkspace } from './context.ts';

/**
 * A cookie-keeping HTTP client over app.inject(): behaves like a browser tab running the SPA, sending the
 * XSRF header from its XSRF-TOKEN cookie on every call unless told not to.
 */
const rnd = () => Math.floor(Math.random() * 254) + 1;

export class Agent {
  readonly cookies = new Map<string, string>();
  /** Each agent is its own client: a random address unless one is given (per-IP limits stay per test). */
  readonly ip: string;
  constructor(
    readonly app: FastifyInstance,
    opts: { ip?: string } = {},
  ) {
    this.ip = opts.ip ?? `10.${rnd()}.${rnd()}.${rnd()}`;
  }

  async request(opts: InjectOptions & { xsrf?: boolean }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    // Like the web client, the header goes on every call (some GETs write and require it: issue 21).
    if (opts.xsrf !== false && !this.cookies.has('XSRF-TOKEN') && opts.url !== '/auth/me') {
      await this.request({ method: 'GET', url: '/auth/me', xsrf: false });
    }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (opts.xsrf !== false && this.cookies.has('XSRF-TOKEN')) {
      headers['x-xsrf-token'] ??= this.cookies.get('XSRF-TOKEN')!;
    }
    const res = await this.app.inject({ remoteAddress: this.ip, ...opts, headers });
    for (const c of res.cookies) {
      if (
        c.value === '' ||
        (c.maxAge !== undefined && c.maxAge <= 0) ||
        (c.expires && c.expires.getTime() < Date.now())
      ) {
        this.cookies.delete(c.name);
      } else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  get(url: string, opts: Partial<InjectOptions> = {}) {
    return this.request({ ...opts, method: 'GET', url });
  }
  post(url: string, payload?: unknown, opts: Partial<InjectOptions> & { xsrf?: boolean } = {}) {
    return this.request({ ...opts, method: 'POST', url, payload: payload as InjectOptions['payload'] });
  }
  patch(url: string, payload?: unknown, opts: Partial<InjectOptions> & { xsrf?: boolean } = {}) {
    return this.request({ ...opts, method: 'PATCH', url, payload: payload as InjectOptions['payload'] });
  }
  delete(url: string, opts: Partial<InjectOptions> & { xsrf?: boolean } = {}) {
    return this.request({ ...opts, method: 'DELETE', url });
  }
}

export const TEST_PASSWORD = 'Correct-Horse-9!';

/**
 * Creates a user straight in the database and logs the agent in through a real session, so feature tests
 * do not depend on the signup flow. Cheap argon2 parameters: tests only.
 */
export async function loggedInAgent(
  app: FastifyInstance,
  db: Db,
  opts: { email?: string; verified?: boolean; firstName?: string } = {},
): Promise<{ agent: Agent; userId: string; email: string }> {
  const id = randomUUID();
  const email = opts.email ?? `user-${id.slice(0, 8)}@example.com`;
  await db.query(
    `insert into users (id, email, first_name, last_name, password_hash, email_verified)
     values ($1, $2, $3, 'Tester', $4, $5)`,
    [
      id,
      email,
      opts.firstName ?? 'Test',
      await hash(TEST_PASSWORD, { memoryCost: 1024, timeCost: 1 }),
      opts.verified ?? true,
    ],
  );
  await insertFirstWorkspace(db, id);
  const { createSession } = await import('../src/modules/sessions/sessions.service.ts');
  const { token } = await createSession(db, id, new Date());
  const agent = new Agent(app);
  const { sessionCookieName } = await import('../src/plugins/session.ts');
  agent.cookies.set(sessionCookieName({ secureCookies: false } as never), token);
  return { agent, userId: id, email };
}
