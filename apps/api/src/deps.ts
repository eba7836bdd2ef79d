import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Config } from './config/env.ts';
import type { Db } from './db/db.ts';
import type { Mailer } from './integrations/mailer.ts';

/**
 * What the application is built from, at the bottom of the import graph: routes, services and jobs import these
 * types from here, and app.ts, which wires them all, is imported by no module (issue 30).
 */
export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  /** Absent in tests that do not exercise background jobs. */
  queue?: PgBoss;
  now?: () => Date;
  /** Outbound HTTP (Meta Graph, captcha); tests point it at local fakes. */
  fetch?: typeof fetch;
  /** Serve the built SPA from this folder (npm start); tests leave it out. */
  webDist?: string;
  logger?: boolean | object;
  /**
   * Whether this process runs background jobs and has registered them: readiness waits for it. Absent (tests,
   * API-only instances) means no worker runs here.
   */
  worker?: () => 'starting' | 'registered';
}

/** The built application, as buildApp answers it. */
export type App = FastifyInstance;
export type ResolvedDeps = Required<Pick<AppDeps, 'config' | 'db' | 'mailer' | 'now' | 'fetch'>> & AppDeps;
