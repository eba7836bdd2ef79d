import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP, type BlockList } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Quotas } from '../modules/usage/quota.service.ts';
import { DEFAULT_TIMING, timingProblem, type DeliveryTiming } from '../modules/delivery/delivery.timing.ts';
import { parseAllowNetworks } from '../modules/sources/ssrf.ts';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** proxy-addr's names for private ranges, usable in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [ip = '', prefix, ...rest] = entry.split('/');
  const family = isIP(ip);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Never "trust every hop": each proxy appends the address it was reached from to X-Forwarded-For, so only the
 * entries our own proxies appended are true and everything left of them is whatever the client sent. A hop
 * count trusts that many proxies (true = 1: the load balancer's entry is the client); a list trusts exactly
 * those proxy addresses.
 */
const TrustProxy = z
  .string()
  .trim()
  .transform((value, ctx): number | string[] => {
    const v = value.toLowerCase();
    if (v === '' || v === 'false') return 0;
    if (v === 'true') return 1;
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = list.filter((e) => !isProxyAddress(e));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a hop count or proxy addresses/CIDRs, got ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return list;
  })
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .regex(
      /^(v\d+:)?[A-Za-z0-9+/]{43}=$/,
      'TOKEN_ENCRYPTION_KEY must be 32 bytes in base64, optionally prefixed "v2:"',
    )
    .optional(),
  TOKEN_ENCRYPTION_OLD_KEYS: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Backsignal <no-reply@backsignal.local>'),
  OPS_EMAIL: z.string().email().default('ops@backsignal.local'),
  CAPTCHA_SITE_KEY: z.string().optional(),
  CAPTCHA_SECRET: z.string().optional(),
  CAPTCHA_DISABLED: bool,
  META_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  META_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default('v25.0'),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(10),
  QUOTA_UPLOAD_MB_PER_DAY: z.coerce.number().positive().default(1024),
  QUOTA_ROWS_PER_DAY: z.coerce.number().int().positive().default(5_000_000),
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(10),
  SEND_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  SEND_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  // Crash takeover (decision 0030): beat, lease/staleness and sweep intervals; the defaults resume within 30 s.
  SEND_HEARTBEAT_MS: z.coerce.number().int().min(10).default(DEFAULT_TIMING.heartbeatMs),
  SEND_STALE_AFTER_MS: z.coerce.number().int().min(50).default(DEFAULT_TIMING.staleAfterMs),
  SEND_SWEEP_EVERY_MS: z.coerce.number().int().min(10).default(DEFAULT_TIMING.sweepEveryMs),
  BOOK_A_CALL_URL: z.string().url().default('https://calendly.com/backsignal/strategy-call'),
  LANDING_VARIANT: z.enum(['agency', 'csv', 'random']).default('random'),
  MARKETING_PIXEL_ID: z.string().regex(/^\d*$/).optional(),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  RUN_WORKER: bool,
  TRUST_PROXY: TrustProxy,
  SOURCES_ALLOW_NETWORKS: z.string().optional(),
  METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN must be at least 32 characters').optional(),
  API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  /** Cookies get Secure and the __Host- prefix when the app is served over https. */
  secureCookies: boolean;
  sessionSecret: string;
  tokenKeys: { current: { version: number; key: Buffer }; all: Map<number, Buffer> };
  smtpUrl: string | undefined;
  mailFrom: string;
  opsEmail: string;
  captcha: { siteKey: string | undefined; secret: string | undefined; disabled: boolean };
  meta: { graphUrl: string; apiVersion: string };
  maxUploadBytes: number;
  /** Per account in any 24 hours: bytes uploaded, and rows for each of validate, prepare and send. */
  quotas: Quotas;
  /** Signups one client address may make in an hour (ADR 0010). */
  signupsPerIpPerHour: number;
  sendBatchSize: number;
  sendConcurrency: number;
  /** How fast a crashed send is taken over (SEND_HEARTBEAT_MS, SEND_STALE_AFTER_MS, SEND_SWEEP_EVERY_MS). */
  sendTiming: DeliveryTiming;
  /** Private networks sources may reach (SOURCES_ALLOW_NETWORKS); every other private address is refused. */
  sourcesAllowNetworks: BlockList;
  /** Bearer token for GET /metrics; unset, the route answers 404. */
  metricsToken: string | undefined;
  bookACallUrl: string;
  landingVariant: Env['LANDING_VARIANT'];
  marketingPixelId: string | undefined;
  runWorker: boolean;
  /** Days uploads, their bytes, runs and failed-row data are kept (Terms: up to one year); ADR 0071. */
  retentionDays: number;
  /** Days anonymous analytics events are kept. */
  analyticsRetentionDays: number;
  /** Calls one API key may make in a minute (decision 0113); past it, 429 with Retry-After. */
  apiKeyRequestsPerMinute: number;
  /** Proxy hops in front of the app whose X-Forwarded-For entries count (0 = none), or their addresses. */
  trustProxy: number | string[];
}

export class ConfigError extends Error {}

function parseKey(spec: string): { version: number; key: Buffer } {
  const m = /^(?:v(\d+):)?(.+)$/.exec(spec.trim());
  if (!m) throw new ConfigError('TOKEN_ENCRYPTION_KEY is malformed');
  const key = Buffer.from(m[2]!, 'base64');
  if (key.length !== 32) throw new ConfigError('TOKEN_ENCRYPTION_KEY must decode to 32 bytes');
  return { version: m[1] ? Number(m[1]) : 1, key };
}

/**
 * Outside production a missing secret is generated once into DATA_DIR and reused, so `npm start` needs no
 * setup; in production a missing secret stops the start with its name.
 */
function devSecrets(dataDir: string): { SESSION_SECRET: string; TOKEN_ENCRYPTION_KEY: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR);

  let sessionSecret = env.SESSION_SECRET;
  let tokenKey = env.TOKEN_ENCRYPTION_KEY;
  if (!sessionSecret || !tokenKey) {
    if (isProduction) {
      const missing = [!sessionSecret && 'SESSION_SECRET', !tokenKey && 'TOKEN_ENCRYPTION_KEY'].filter(
        Boolean,
      );
      throw new ConfigError(`Missing required secret(s) in production: ${missing.join(', ')}`);
    }
    const generated = devSecrets(dataDir);
    sessionSecret ??= generated.SESSION_SECRET;
    tokenKey ??= generated.TOKEN_ENCRYPTION_KEY;
  }
  const current = parseKey(tokenKey);
  const all = new Map<number, Buffer>([[current.version, current.key]]);
  for (const old of (env.TOKEN_ENCRYPTION_OLD_KEYS ?? '').split(',').filter(Boolean)) {
    const k = parseKey(old);
    all.set(k.version, k.key);
  }

  const captchaDisabled = env.CAPTCHA_DISABLED ?? false;
  if (isProduction && !captchaDisabled && (!env.CAPTCHA_SITE_KEY || !env.CAPTCHA_SECRET)) {
    throw new ConfigError(
      'Missing CAPTCHA_SITE_KEY and CAPTCHA_SECRET in production (or set CAPTCHA_DISABLED=true)',
    );
  }

  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const sendTiming: DeliveryTiming = {
    heartbeatMs: env.SEND_HEARTBEAT_MS,
    staleAfterMs: env.SEND_STALE_AFTER_MS,
    sweepEveryMs: env.SEND_SWEEP_EVERY_MS,
  };
  let sourcesAllowNetworks: BlockList;
  try {
    sourcesAllowNetworks = parseAllowNetworks(env.SOURCES_ALLOW_NETWORKS);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const timingError = timingProblem(sendTiming);
  if (timingError) throw new ConfigError(timingError);
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    appUrl,
    secureCookies: appUrl.startsWith('https://'),
    sessionSecret,
    tokenKeys: { current, all },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM,
    opsEmail: env.OPS_EMAIL,
    captcha: { siteKey: env.CAPTCHA_SITE_KEY, secret: env.CAPTCHA_SECRET, disabled: captchaDisabled },
    meta: { graphUrl: env.META_GRAPH_URL.replace(/\/$/, ''), apiVersion: env.META_API_VERSION },
    maxUploadBytes: Math.round(env.MAX_UPLOAD_MB * 1024 * 1024),
    quotas: {
      uploadBytes: Math.round(env.QUOTA_UPLOAD_MB_PER_DAY * 1024 * 1024),
      rows: env.QUOTA_ROWS_PER_DAY,
    },
    signupsPerIpPerHour: env.SIGNUPS_PER_IP_PER_HOUR,
    sendBatchSize: env.SEND_BATCH_SIZE,
    sendConcurrency: env.SEND_CONCURRENCY,
    sendTiming,
    bookACallUrl: env.BOOK_A_CALL_URL,
    landingVariant: env.LANDING_VARIANT,
    marketingPixelId: env.MARKETING_PIXEL_ID || undefined,
    runWorker: env.RUN_WORKER ?? true,
    retentionDays: env.RETENTION_DAYS,
    analyticsRetentionDays: env.ANALYTICS_RETENTION_DAYS,
    trustProxy: env.TRUST_PROXY ?? 0,
    metricsToken: env.METRICS_TOKEN || undefined,
    apiKeyRequestsPerMinute: env.API_KEY_REQUESTS_PER_MINUTE,
    sourcesAllowNetworks,
  };
}
