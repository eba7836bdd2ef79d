import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configDir, loadCredentials, normaliseApiUrl, saveCredentials } from '../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'backsignal-cli-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the login file', () => {
  it('is written readable by the user alone, in a folder only the user can enter', async () => {
    const folder = join(dir, 'fresh');
    const path = await saveCredentials(folder, { apiUrl: 'https://app.example.com', apiKey: 'bsk_secret' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(await loadCredentials(folder, {})).toEqual({
      apiUrl: 'https://app.example.com',
      apiKey: 'bsk_secret',
    });
  });

  it('narrows an older file to 600 when it is written again', async () => {
    const folder = join(dir, 'older');
    await saveCredentials(folder, { apiUrl: 'https://a.example', apiKey: 'k1' });
    writeFileSync(join(folder, 'config.json'), '{}', { mode: 0o644 });
    const path = await saveCredentials(folder, { apiUrl: 'https://a.example', apiKey: 'k2' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('takes BACKSIGNAL_API_URL and BACKSIGNAL_API_KEY over the file, and says how to log in without either', async () => {
    const env = { BACKSIGNAL_API_URL: 'http://127.0.0.1:3000/', BACKSIGNAL_API_KEY: 'bsk_env' };
    expect(await loadCredentials(join(dir, 'none'), env)).toEqual({
      apiUrl: 'http://127.0.0.1:3000',
      apiKey: 'bsk_env',
    });
    await expect(loadCredentials(join(dir, 'none'), {})).rejects.toThrow('Run `backsignal login` first');
  });

  it('lives in the config folder of the platform, or BACKSIGNAL_CONFIG_DIR', () => {
    expect(configDir({ BACKSIGNAL_CONFIG_DIR: '/x/y' })).toBe('/x/y');
    expect(configDir({})).toMatch(/backsignal$/);
  });

  it('keeps the app address as its origin, http(s) only', () => {
    expect(normaliseApiUrl('https://app.example.com/some/path/')).toBe('https://app.example.com');
    expect(() => normaliseApiUrl('app.example.com')).toThrow('Not a web address');
    expect(() => normaliseApiUrl('ftp://app.example.com')).toThrow('must start with https://');
  });
});
