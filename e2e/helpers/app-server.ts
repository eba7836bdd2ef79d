import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort, publicUrl } from './run-env.ts';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));

/**
 * Another instance of the product beside the one playwright.config.ts starts, on a data folder a journey made
 * (`npm start` as the config runs it, on a free port): for journeys that need data no screen can make.
 */
export async function startAppServer(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, [START], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      APP_URL: url,
      PUBLIC_URL: publicUrl(),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 250))) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      ready = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
