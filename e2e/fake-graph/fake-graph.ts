import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for Meta's Graph API `/{version}/{pixel}/events`, loopback only. It checks requests the way
 * Meta does (bearer token, 1–1,000 events, required fields, hashed user_data) and injects faults on demand.
 * Used by the API tests, the browser journeys (`npm run fake-graph`) and the benchmark.
 */

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; retryAfter?: string }
  | {
      kind: 'graph';
      code: number;
      subcode?: number;
      status?: number;
      transient?: boolean;
      retryAfter?: string;
      title?: string;
      message?: string;
    }
  | { kind: 'timeout' }
  | { kind: 'drop' }
  /** Meta processes the batch, then the connection breaks before the answer arrives. */
  | { kind: 'accept-then-drop' };

export interface ReceivedRequest {
  pixelId: string;
  testEventCode: string | null;
  partnerAgent: string | null;
  /** Each event's id, name and user_data as sent (hashed): what a journey checks arrived. */
  events: { event_id: string; event_name: string; user_data: Record<string, unknown> }[];
  outcome: 'accepted' | 'rejected' | 'fault';
}

export interface FakeGraphOptions {
  port?: number;
  /** Answer delay for every request (ms). */
  delayMs?: number;
  /**
   * Tokens accepted; anything else gets code 190. Empty = any non-empty token. A token holding
   * `expires-after-N-` is accepted for its first N events, then refused with code 190 like an expired token (a
   * send whose token Meta stops accepting halfway).
   */
  tokens?: string[];
  /** Pixels that exist; anything else gets 100/33. Empty = any numeric id. */
  pixels?: string[];
  /** Keep per-request event lists (off for the 1M-event benchmark). */
  record?: boolean;
}

const HASH = /^[0-9a-f]{64}$/;
const HASHED_KEYS = ['em', 'ph', 'fn', 'ln', 'db', 'ge', 'ct', 'st', 'zp', 'country'];
/** Any event whose event_name is this is rejected like an invalid parameter (a whole-batch 100). */
export const POISON_EVENT_NAME = 'PoisonRow';
/** Refused like POISON_EVENT_NAME, but the answer names no row. */
export const UNNAMED_POISON_EVENT_NAME = 'PoisonRowUnnamed';
/** Refused, naming its row, the way Meta refuses an event older than its window (subcode 2804003). */
export const STALE_EVENT_NAME = 'StaleRow';

function validateEvent(e: unknown): string | null {
  if (!e || typeof e !== 'object') return 'event is not an object';
  const o = e as Record<string, unknown>;
  if (typeof o.event_name !== 'string' || !o.event_name) return 'missing event_name';
  if (o.event_name === POISON_EVENT_NAME || o.event_name === UNNAMED_POISON_EVENT_NAME)
    return 'The parameter event_name is invalid';
  if (typeof o.event_time !== 'number' || !Number.isInteger(o.event_time))
    return 'event_time must be unix seconds';
  if (typeof o.action_source !== 'string') return 'missing action_source';
  const ud = o.user_data;
  if (!ud || typeof ud !== 'object' || Object.keys(ud).length === 0) return 'user_data is required';
  for (const k of HASHED_KEYS) {
    const v = (ud as Record<string, unknown>)[k];
    if (v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((x) => typeof x === 'string' && HASH.test(x)))
      return `user_data.${k} must be sha256 hashed`;
  }
  return null;
}

export async function startFakeGraph(options: FakeGraphOptions = {}) {
  const faults: Fault[] = [];
  const requests: ReceivedRequest[] = [];
  const deliveredCount = new Map<string, number>();
  /** Events accepted per `expires-after-N-` token. */
  const acceptedByToken = new Map<string, number>();
  let requestCount = 0;
  let eventsAccepted = 0;
  let delayMs = options.delayMs ?? 0;
  const record = options.record ?? true;
  const sockets = new Set<Socket>();

  const graphError = (
    res: ServerResponse,
    status: number,
    error: Record<string, unknown>,
    retryAfter?: string,
  ) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (retryAfter) headers['retry-after'] = retryAfter;
    res
      .writeHead(status, headers)
      .end(JSON.stringify({ error: { type: 'OAuthException', fbtrace_id: `T${requestCount}`, ...error } }));
  };

  // Requests waiting out the delay: lowering it to 0 lets them all go at once, so a test can hold a send
  // mid-flight for as long as it needs and then finish it, whatever the machine's speed.
  const waiting = new Set<() => void>();
  const setDelay = (ms: number) => {
    delayMs = ms;
    if (!ms) for (const go of waiting) go();
  };
  const hold = (ms: number) =>
    new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        waiting.delete(go);
        resolve();
      };
      const timer = setTimeout(go, ms);
      waiting.add(go);
    });

  // Answers held until `gate` requests are waiting, then all answered together: a test that needs a whole wave
  // of concurrent requests on the wire before the first answer gets it on any machine, unlike a timed delay.
  let gate = 0;
  let gated: (() => void)[] = [];
  const setGate = (n: number) => {
    gate = n;
    if (!n) for (const go of gated.splice(0)) go();
  };
  const passGate = () =>
    new Promise<void>((resolve) => {
      gated.push(resolve);
      if (gated.length >= gate) {
        const wave = gated;
        gated = [];
        for (const go of wave) go();
      }
    });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/__control/faults' && req.method === 'POST') {
      const body = JSON.parse(await readBody(req)) as { faults?: Fault[]; delayMs?: number; reset?: boolean };
      if (body.reset) reset();
      if (body.faults) faults.push(...body.faults);
      if (body.delayMs !== undefined) setDelay(body.delayMs);
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/__control/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats()));
      return;
    }
    // 'Test connection' reads the pixel: answered by the same token and pixel rules as a send, never counted.
    const read = /^\/(v\d+\.\d+)\/([^/]+)$/.exec(url.pathname);
    if (read && req.method === 'GET') {
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      const pixelId = decodeURIComponent(read[2]!);
      const expires = /expires-after-(\d+)-/.exec(token);
      if (
        !token ||
        (options.tokens?.length && !options.tokens.includes(token)) ||
        (expires && (acceptedByToken.get(token) ?? 0) >= Number(expires[1]))
      )
        return graphError(res, 401, { code: 190, message: 'Error validating access token.' });
      if (options.pixels?.length ? !options.pixels.includes(pixelId) : !/^\d+$/.test(pixelId))
        return graphError(res, 400, { code: 100, error_subcode: 33, message: 'Unsupported get request.' });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: pixelId, name: `Pixel ${pixelId}` }));
      return;
    }
    const m = /^\/(v\d+\.\d+)\/([^/]+)\/events$/.exec(url.pathname);
    if (!m || req.method !== 'POST')
      return graphError(res, 400, { code: 100, message: 'Unsupported request' });
    requestCount++;
    if (url.searchParams.has('access_token'))
      return graphError(res, 400, { code: 100, message: 'token must not be in the URL (test rule)' });
    const raw = await readBody(req);
    if (gate) await passGate();
    if (delayMs) await hold(delayMs);
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const pixelId = decodeURIComponent(m[2]!);
    let body: { data?: unknown; test_event_code?: unknown; partner_agent?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return graphError(res, 400, { code: 100, message: 'Invalid JSON' });
    }
    const data = Array.isArray(body.data) ? body.data : null;
    const entry: ReceivedRequest = {
      pixelId,
      testEventCode: typeof body.test_event_code === 'string' ? body.test_event_code : null,
      partnerAgent: typeof body.partner_agent === 'string' ? body.partner_agent : null,
      events:
        record && data
          ? data.map((e) => ({
              event_id: String((e as { event_id?: unknown }).event_id),
              event_name: String((e as { event_name?: unknown }).event_name),
              user_data: ((e as { user_data?: unknown }).user_data ?? {}) as Record<string, unknown>,
            }))
          : [],
      outcome: 'fault',
    };
    if (record) requests.push(entry);

    const fault = faults.shift();
    if (fault) {
      switch (fault.kind) {
        case 'timeout':
          return; // never answer; the client's timeout fires
        case 'drop':
          req.socket.destroy();
          return;
        case 'status':
          res.writeHead(fault.status, {
            'content-type': 'text/plain',
            ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
          });
          res.end(typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body ?? 'error'));
          return;
        case 'graph':
          return graphError(
            res,
            fault.status ?? 400,
            {
              code: fault.code,
              error_subcode: fault.subcode,
              is_transient: fault.transient ?? false,
              message: fault.message ?? `Fault ${fault.code}`,
              error_user_title: fault.title,
            },
            fault.retryAfter,
          );
        case 'accept-then-drop':
          break;
      }
    }
    if (!token)
      return graphError(res, 400, {
        code: 190,
        message: 'An active access token must be used to query information about the current user.',
      });
    if (options.tokens?.length && !options.tokens.includes(token)) {
      return graphError(res, 401, {
        code: 190,
        error_subcode: 463,
        message: 'Error validating access token: Session has expired.',
      });
    }
    const expiresAfter = /expires-after-(\d+)-/.exec(token);
    if (expiresAfter && (acceptedByToken.get(token) ?? 0) >= Number(expiresAfter[1])) {
      return graphError(res, 401, {
        code: 190,
        error_subcode: 463,
        message: 'Error validating access token: Session has expired.',
      });
    }
    if (options.pixels?.length ? !options.pixels.includes(pixelId) : !/^\d+$/.test(pixelId)) {
      return graphError(res, 400, {
        code: 100,
        error_subcode: 33,
        message: `Unsupported post request. Object with ID '${pixelId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      });
    }
    if (!data || data.length === 0)
      return graphError(res, 400, { code: 100, message: 'The parameter data is required' });
    if (data.length > 1000)
      return graphError(res, 400, { code: 100, message: 'Too many events: up to 1000 per request' });
    for (let i = 0; i < data.length; i++) {
      if ((data[i] as { event_name?: unknown }).event_name === STALE_EVENT_NAME) {
        entry.outcome = 'rejected';
        return graphError(res, 400, {
          code: 100,
          error_subcode: 2804003,
          message: `Invalid parameter at $['data'][${i}]: event_time is too far in the past`,
          error_user_title: 'Event Timestamp Too Old',
          error_user_msg: 'The timestamp for this event is too far in the past.',
        });
      }
      const problem = validateEvent(data[i]);
      if (problem) {
        entry.outcome = 'rejected';
        // Meta does not always say which event it refused.
        const unnamed = (data[i] as { event_name?: unknown }).event_name === UNNAMED_POISON_EVENT_NAME;
        return graphError(res, 400, {
          code: 100,
          error_subcode: 2804019,
          message: unnamed
            ? `Invalid parameter: ${problem}`
            : `Invalid parameter at $['data'][${i}]: ${problem}`,
          error_user_title: 'Invalid parameter',
          error_user_msg: problem,
        });
      }
    }
    entry.outcome = 'accepted';
    eventsAccepted += data.length;
    if (expiresAfter) acceptedByToken.set(token, (acceptedByToken.get(token) ?? 0) + data.length);
    if (record) {
      for (const e of entry.events) {
        const k = `${e.event_name}\u0000${e.event_id}`;
        deliveredCount.set(k, (deliveredCount.get(k) ?? 0) + 1);
      }
    }
    if (fault?.kind === 'accept-then-drop') {
      req.socket.destroy();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ events_received: data.length, messages: [], fbtrace_id: `F${requestCount}` }));
  }

  function reset() {
    faults.length = 0;
    requests.length = 0;
    deliveredCount.clear();
    acceptedByToken.clear();
    requestCount = 0;
    eventsAccepted = 0;
  }

  const stats = () => ({
    requestCount,
    eventsAccepted,
    distinctEvents: deliveredCount.size,
    pendingFaults: faults.length,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** How many accepted copies of each (event_name, event_id) arrived. */
    deliveredCount,
    stats,
    inject: (...f: Fault[]) => faults.push(...f),
    setDelay,
    setGate,
    reset,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
