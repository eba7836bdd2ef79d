import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

const made: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bs-config-'));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('loadConfig', () => {
  it('starts with no settings outside production, generating secrets once and reusing them', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.appUrl).toBe('http://localhost:3000');
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect(b.tokenKeys.current.key.equals(a.tokenKeys.current.key)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toHaveProperty('SESSION_SECRET');
  });

  it('refuses to start in production without secrets, naming them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), CAPTCHA_DISABLED: 'true' })).toThrow(
      /SESSION_SECRET, TOKEN_ENCRYPTION_KEY/,
    );
  });

  it('refuses production without captcha keys unless captcha is disabled explicitly', () => {
    const secrets = {
      NODE_ENV: 'production',
      DATA_DIR: tmp(),
      SESSION_SECRET: 'x'.repeat(40),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    };
    expect(() => loadConfig(secrets)).toThrow(/CAPTCHA_SITE_KEY/);
    expect(loadConfig({ ...secrets, CAPTCHA_DISABLED: 'true' }).captcha.disabled).toBe(true);
  });

  it('names the variable of an invalid value', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: tmp() })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: tmp() })).toThrow(/PORT/);
    expect(() => loadConfig({ SEND_BATCH_SIZE: '5000', DATA_DIR: tmp() })).toThrow(/SEND_BATCH_SIZE/);
  });

  it('turns on secure cookies for an https APP_URL', () => {
    expect(loadConfig({ DATA_DIR: tmp(), APP_URL: 'https://app.example.com/' })).toMatchObject({
      secureCookies: true,
      appUrl: 'https://app.example.com',
    });
  });

  it('reads TRUST_PROXY as a number of proxy hops or a list of proxy addresses, never "trust all"', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY }).trustProxy;
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toBe(0);
    expect(trust('false')).toBe(0);
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 2001:db8::1,loopback')).toEqual(['10.0.0.0/8', '2001:db8::1', 'loopback']);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.300', '*'])
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY/);
  });

  it('reads versioned encryption keys and old keys for rotation', () => {
    const k1 = Buffer.alloc(32, 1).toString('base64');
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const c = loadConfig({
      DATA_DIR: tmp(),
      TOKEN_ENCRYPTION_KEY: `v2:${k2}`,
      TOKEN_ENCRYPTION_OLD_KEYS: `v1:${k1}`,
    });
    expect(c.tokenKeys.current.version).toBe(2);
    expect([...c.tokenKeys.all.keys()].sort()).toEqual([1, 2]);
  });
});
