import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { CliError } from './errors.ts';

/** What `backsignal login` keeps: the API's address and the key, in a file only the user can read. */
export interface Credentials {
  apiUrl: string;
  apiKey: string;
}

/**
 * The user's config folder (XDG_CONFIG_HOME/backsignal on Linux, ~/Library/Preferences/backsignal on macOS,
 * %APPDATA%\backsignal\Config on Windows), or BACKSIGNAL_CONFIG_DIR.
 */
export const configDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.BACKSIGNAL_CONFIG_DIR || envPaths('backsignal', { suffix: '' }).config;

const file = (dir: string) => join(dir, 'config.json');

/** An API address as the CLI keeps it: the app's origin (the API is at /api/v1 under it). */
export function normaliseApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`Not a web address: ${value}`, 'BAD_ARGUMENT');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CliError(`The API address must start with https:// (got ${value}).`, 'BAD_ARGUMENT');
  return url.origin;
}

export async function saveCredentials(dir: string, credentials: Credentials): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = file(dir);
  await writeFile(path, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  // writeFile's mode applies only to a new file: an older one is narrowed too.
  await chmod(path, 0o600);
  return path;
}

/** The key and address: BACKSIGNAL_API_KEY and BACKSIGNAL_API_URL (for CI) over what login saved. */
export async function loadCredentials(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Credentials> {
  const saved = await readFile(file(dir), 'utf8')
    .then((t) => JSON.parse(t) as Partial<Credentials>)
    .catch(() => ({}) as Partial<Credentials>);
  const apiKey = env.BACKSIGNAL_API_KEY || saved.apiKey;
  const apiUrl = env.BACKSIGNAL_API_URL || saved.apiUrl;
  if (!apiKey || !apiUrl)
    throw new CliError(
      'Not logged in. Run `backsignal login` first, or set BACKSIGNAL_API_URL and BACKSIGNAL_API_KEY.',
      'NOT_LOGGED_IN',
    );
  return { apiKey, apiUrl: normaliseApiUrl(apiUrl) };
}
