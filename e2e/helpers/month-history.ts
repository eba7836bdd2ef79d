import { insightsCounters } from '../../apps/api/src/modules/insights/insights-counters.repo.ts';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type PgBoss from 'pg-boss';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config/env.ts';
import type { Db } from '../../apps/api/src/db/db.ts';
import type { ResolvedDeps } from '../../apps/api/src/deps.ts';
import { handleSendRunJob } from '../../apps/api/src/jobs/send-run.job.ts';
import { engineOptions } from '../../apps/api/src/modules/delivery/delivery.options.ts';
import { openRuntime } from '../../apps/api/src/runtime.ts';
import { POISON_EVENT_NAME, STALE_EVENT_NAME } from '../fake-graph/fake-graph.ts';
import { uniquePixelId } from './accounts.ts';
import { E2E_PASSWORD } from './auth.ts';

/**
 * A month of Insights history for a browser journey (issue 33): a fresh data folder in which a user signed up
 * through the app's routes sends small files to two pixels through the app's own send path (the route, then the
 * send job's handler) against the fake Graph API, day after day. Real sends end now, so after each day's sends
 * that day's runs and the counters their ends wrote are dated back to the day they stand for, with plain SQL on
 * this test database: the numbers are the product's, only their dates are moved. Nothing in the product changes.
 */
export const HISTORY_DAYS = 30;
/** The send route's per-user limit (delivery.routes.ts). */
const SENDS_PER_MINUTE = 10;
const RESENT_DAYS_AGO = 3;
export interface MonthHistory {
  dataDir: string;
  /** The server's settings for this folder (its secrets are in the folder, written by the first start). */
  env: Record<string, string>;
  email: string;
  password: string;
  slug: string;
  pixels: { name: string; pixelId: string }[];
  /** Upload ids of every send made. */
  uploadIds: string[];
  /** Per upload: the rows the fake Graph accepted that carried each identifier group (phone, name, zip). */
  carried: Map<string, { rows: number; phone: number; name: number; zip: number }>;
  remove(): void;
}

/** Who sends on `daysAgo` (0 today): no sends one day a week, both pixels every tenth day, one pixel otherwise. */
function sendsOn(daysAgo: number): number[] {
  if (daysAgo % 7 === 6) return [];
  if (daysAgo % 10 === 0) return [0, 1];
  return [daysAgo % 3 === 0 ? 1 : 0];
}

/** A cookie-keeping client over app.inject() that sends the XSRF header, as the web app does. */
function client(app: () => FastifyInstance) {
  const cookies = new Map<string, string>();
  return async (opts: InjectOptions) => {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookies.has('XSRF-TOKEN')) headers['x-xsrf-token'] = cookies.get('XSRF-TOKEN')!;
    const res = await app().inject({ remoteAddress: '127.0.0.1', ...opts, headers });
    for (const c of res.cookies) cookies.set(c.name, c.value);
    if (res.statusCode >= 300) throw new Error(`${opts.method} ${opts.url}: ${res.statusCode} ${res.body}`);
    return res;
  };
}

function multipart(name: string, csv: string) {
  const boundary = `----backsignal${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One day's file: its size, identifier coverage and refused rows vary with the day. */
function dayFile(tag: string, daysAgo: number, pixel: number) {
  const rows = 20 + ((daysAgo * 7 + pixel * 13) % 41);
  const phoneEvery = 1 + ((daysAgo + pixel) % 4);
  const named = daysAgo % 3 !== 2;
  const zipped = daysAgo % 5 < 2;
  const poisonEvery = daysAgo % 4 === 1 ? 9 : 0;
  const staleRow = daysAgo % 6 === 2 ? 5 : 0;
  const when = new Date(Date.now() - 2 * 3600_000).toISOString().slice(0, 19) + 'Z';
  const carried = { rows: 0, phone: 0, name: 0, zip: 0 };
  const lines = ['Email,Phone,First name,Zip,Event,When,Source'];
  for (let i = 1; i <= rows; i++) {
    const phone = i % phoneEvery === 0;
    const name = named && i % 2 === 1;
    const zip = zipped && i % 3 !== 0;
    const refused = (poisonEvery && i % poisonEvery === 0) || i === staleRow;
    const event = i === staleRow ? STALE_EVENT_NAME : refused ? POISON_EVENT_NAME : 'Lead';
    if (!refused) {
      carried.rows++;
      carried.phone += Number(phone);
      carried.name += Number(name);
      carried.zip += Number(zip);
    }
    lines.push(
      [
        `${tag}-${i}@example.com`,
        phone ? `+1 602 555 ${String(1000 + i).slice(-4)}` : '',
        name ? 'Sam' : '',
        zip ? '85001' : '',
        event,
        when,
        'physical_store',
      ].join(','),
    );
  }
  return { csv: lines.join('\r\n') + '\r\n', carried };
}

/** The token of the verification link mailed to `email`: the mail is written to the outbox after signup answers. */
async function verifyToken(dataDir: string, email: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  for (let i = 0; i < 100; i++) {
    const files = existsSync(outbox) ? readdirSync(outbox) : [];
    for (const f of files) {
      const mail = JSON.parse(readFileSync(join(outbox, f), 'utf8')) as { to: string; text: string };
      const token = mail.to === email ? /\/verify\?token=([\w-]+)/.exec(mail.text)?.[1] : undefined;
      if (token) return token;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no verification mail to ${email} in the outbox`);
}

const MAPPINGS = {
  Email: 'email',
  Phone: 'phone',
  'First name': 'first_name',
  Zip: 'zip',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
};

export async function seedMonthHistory(graphUrl: string): Promise<MonthHistory> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backsignal-e2e-month-'));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  const env = {
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    META_GRAPH_URL: graphUrl,
    LOG_LEVEL: 'warn',
  };
  try {
    // The server's own start: migrations, secrets generated into the folder (the server reuses them), the outbox.
    const config = loadConfig(env);
    const { db, mailer } = await openRuntime(config, { info: () => undefined });
    // The send route queues the run; here the send job's handler runs it at once instead of a pg-boss worker.
    const queue = { send: async () => null } as unknown as PgBoss;
    const start = () => buildApp({ config, db, mailer, queue, logger: false });
    let app = await start();
    const deps = { config, db, fetch } as unknown as ResolvedDeps;
    try {
      const call = client(() => app);
      await call({ method: 'GET', url: '/auth/me' });
      const email = `month-${Date.now()}@example.com`;
      await call({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, firstName: 'Morgan', lastName: 'Hale', password: E2E_PASSWORD },
      });
      await call({ method: 'GET', url: `/auth/verify?token=${await verifyToken(dataDir, email)}` });
      await call({ method: 'POST', url: '/auth/login', payload: { email, password: E2E_PASSWORD } });

      const pixels = [
        { name: 'Flagship store', pixelId: uniquePixelId() },
        { name: 'Web shop', pixelId: uniquePixelId() },
      ];
      const accounts: string[] = [];
      for (const p of pixels) {
        const r = await call({
          method: 'POST',
          url: '/api/meta/accounts',
          payload: { ...p, accessToken: 'EAAB-e2e-token-123456' },
        });
        accounts.push((r.json().account?.id ?? r.json().id) as string);
      }

      const uploadIds: string[] = [];
      const carried: MonthHistory['carried'] = new Map();
      for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
        const runIds: string[] = [];
        const dayUploads: string[] = [];
        const files = sendsOn(daysAgo).map((pixel) => ({
          name: `day-${daysAgo}-${pixel ? 'web' : 'store'}.csv`,
          pixel,
          ...dayFile(`${Date.now()}-${daysAgo}-${pixel}`, daysAgo, pixel),
        }));
        // One file sent twice: every event is already at Meta the second time, so Insights has skipped events.
        if (daysAgo === RESENT_DAYS_AGO)
          files.push({
            ...files[0]!,
            name: files[0]!.name.replace('.csv', '-again.csv'),
            carried: { rows: 0, phone: 0, name: 0, zip: 0 },
          });
        for (const { name, pixel, ...file } of files) {
          // A user may start SENDS_PER_MINUTE sends a minute; a month in seconds takes a new instance (the limit
          // is each instance's) on the same database now and then, as if the server had restarted.
          if (uploadIds.length && uploadIds.length % SENDS_PER_MINUTE === 0) {
            await app.close();
            app = await start();
          }
          const up = await call({ method: 'POST', url: '/api/upload', ...multipart(name, file.csv) });
          const id = up.json().file.id as string;
          await call({
            method: 'PATCH',
            url: `/api/uploads/${id}/status`,
            payload: { status: 'mapped', mappings: MAPPINGS, hardcodedValues: {} },
          });
          await call({ method: 'GET', url: `/api/uploads/${id}/validate` });
          await call({ method: 'PATCH', url: `/api/uploads/${id}/status`, payload: { status: 'validated' } });
          await call({ method: 'GET', url: `/api/uploads/${id}/prepare` });
          const sent = await call({
            method: 'POST',
            url: `/api/uploads/${id}/send`,
            payload: { selectedAccountId: accounts[pixel] },
          });
          const runId = sent.json().runId as string;
          await handleSendRunJob(engineOptions(deps), { data: { runId }, retryCount: 0, retryLimit: 0 });
          runIds.push(runId);
          dayUploads.push(id);
          uploadIds.push(id);
          carried.set(id, file.carried);
        }
        if (daysAgo && runIds.length) await dateBack(db, runIds, dayUploads, daysAgo);
      }
      // The weekly and workspace counters again from the days moved back, as ending the runs on those days would
      // have written them (the API tests check that of the statements themselves).
      const { rows: ws } = await db.query<{ id: string }>(
        `select m.workspace_id as id from workspace_members m join users u on u.id = m.user_id where u.email = $1`,
        [email],
      );
      await insightsCounters.rebuildRollups(db, ws[0]!.id);
      const { rows } = await db.query<{ slug: string }>(
        `select w.slug from workspaces w join workspace_members m on m.workspace_id = w.id
           join users u on u.id = m.user_id where u.email = $1`,
        [email],
      );
      return {
        dataDir,
        env,
        email,
        password: E2E_PASSWORD,
        slug: rows[0]!.slug,
        pixels,
        uploadIds,
        carried,
        remove,
      };
    } finally {
      await app.close();
      await db.close();
    }
  } catch (err) {
    remove();
    throw err;
  }
}

/**
 * Moves a day's ended runs, their uploads and the counters their ends wrote `daysAgo` days back. Counter rows are
 * found by the days the runs ended on, which no earlier (already moved) day can hold.
 */
async function dateBack(db: Db, runIds: string[], uploadIds: string[], daysAgo: number) {
  const back = (col: string) => `${col} = ${col} - make_interval(days => $2)`;
  await db.query(
    `update insight_days set day = day - $2::int
      where workspace_id = (select workspace_id from send_runs where id = ($1::uuid[])[1])
        and day in (select (finished_at at time zone 'UTC')::date from send_runs where id = any($1::uuid[]))`,
    [runIds, daysAgo],
  );
  await db.query(`update insight_failures set day = day - $2::int where run_id = any($1::uuid[])`, [
    runIds,
    daysAgo,
  ]);
  await db.query(
    `update send_runs set ${[
      'created_at',
      'started_at',
      'finished_at',
      'updated_at',
      'heartbeat_at',
      'read_at',
    ]
      .map(back)
      .join(', ')} where id = any($1::uuid[])`,
    [runIds, daysAgo],
  );
  await db.query(
    `update uploads set ${back('created_at')}, ${back('updated_at')} where id = any($1::uuid[])`,
    [uploadIds, daysAgo],
  );
}
