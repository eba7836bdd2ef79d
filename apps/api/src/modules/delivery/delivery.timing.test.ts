import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { UNWRITTEN_DATA_DIR } from '../../../test/context.ts';
import {
  DEFAULT_TIMING,
  TAKEOVER_PROMISE_MS,
  timingProblem,
  worstCaseTakeoverMs,
} from './delivery.timing.ts';

// Secrets given, so loading the configuration writes no generated ones into DATA_DIR.
const env = {
  NODE_ENV: 'test',
  DATA_DIR: UNWRITTEN_DATA_DIR,
  SESSION_SECRET: 'timing-test-session-secret-long-enough-12',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
} as const;

describe('crash takeover timing', () => {
  it('the production defaults resume a dead send within 30 s', () => {
    expect(loadConfig(env).sendTiming).toEqual(DEFAULT_TIMING);
    expect(worstCaseTakeoverMs(DEFAULT_TIMING)).toBeLessThan(TAKEOVER_PROMISE_MS);
    expect(timingProblem(DEFAULT_TIMING)).toBeNull();
  });

  it('reads the intervals from the environment and refuses a lease shorter than three beats', () => {
    expect(
      loadConfig({
        ...env,
        SEND_HEARTBEAT_MS: '100',
        SEND_STALE_AFTER_MS: '1000',
        SEND_SWEEP_EVERY_MS: '200',
      }).sendTiming,
    ).toEqual({ heartbeatMs: 100, staleAfterMs: 1000, sweepEveryMs: 200 });
    expect(() => loadConfig({ ...env, SEND_HEARTBEAT_MS: '5000', SEND_STALE_AFTER_MS: '10000' })).toThrow(
      /three heartbeats/,
    );
  });
});
