import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { AnalyticsBatch } from '@backsignal/contracts';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError, TOO_MANY_REQUESTS } from '../../errors/app-error.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { hmac } from '../../lib/tokens.ts';
import { analyticsRepo } from './analytics.repo.ts';

/**
 * Events one client address may store per hour, counted in the database so every API instance shares it. A
 * visitor clicking through the site sends a few dozen; a flood stops here (issue 21: one minute of flooding
 * grows the database by well under 1 MB, see the flood test).
 */
export const ANALYTICS_EVENTS_PER_ADDRESS_PER_HOUR = 120;
const WINDOW_MS = 60 * 60 * 1000;

/**
 * Only the app's own pages may post: browsers send Origin on every POST (fetch and sendBeacon alike) and
 * Sec-Fetch-Site where they support it. The origin is the configured APP_URL's or the one the request was
 * addressed to (a dev proxy, a second hostname); another site's page never matches either.
 */
export function fromOwnPages(headers: IncomingHttpHeaders, appUrl: string): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === new URL(appUrl).host || host === headers.host;
}

export async function recordAnalytics(
  deps: { db: Queryable; config: Config; now: () => Date },
  request: { headers: IncomingHttpHeaders; ip: string },
  batch: z.output<typeof AnalyticsBatch>,
): Promise<void> {
  if (!fromOwnPages(request.headers, deps.config.appUrl))
    throw new AppError('FORBIDDEN', 'Analytics are accepted from this site only.');
  const events = batch.events;
  const now = deps.now();
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  const address = hmac(deps.config.sessionSecret, `analytics|${clientAddress(request.ip)}`);
  const fits = await analyticsRepo.take(
    deps.db,
    address,
    windowStart,
    events.length,
    ANALYTICS_EVENTS_PER_ADDRESS_PER_HOUR,
  );
  if (!fits) {
    const retryAfter = Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000);
    throw new AppError('RATE_LIMITED', TOO_MANY_REQUESTS, undefined, retryAfter);
  }
  await analyticsRepo.insert(deps.db, events, now);
}
