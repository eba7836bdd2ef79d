import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { startQueue } from './jobs/queue.ts';
import { registerJobs } from './jobs/register-jobs.ts';
import { loggerOptions } from './lib/logger-options.ts';
import { openRuntime } from './runtime.ts';

const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

async function main() {
  const config = loadConfig();
  const logger = loggerOptions(config.logLevel);
  const boot = (await import('pino')).default(logger);
  const { db, mailer } = await openRuntime(config, boot);
  const queue = await startQueue(db, config.databaseUrl);
  const webDist = existsSync(WEB_DIST) ? WEB_DIST : undefined;
  let jobs: 'starting' | 'registered' = 'starting';
  const worker = config.runWorker ? () => jobs : undefined;
  const app = await buildApp({ config, db, mailer, queue, webDist, logger, worker });
  if (config.runWorker) {
    await registerJobs(queue, { config, db, mailer, queue, now: () => new Date(), fetch });
    jobs = 'registered';
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await queue.stop({ graceful: true, timeout: 10_000 }).catch(() => {});
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Backsignal is running at ${config.appUrl} (${db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  if (!webDist) app.log.warn('apps/web/dist is missing: run `npm run build` to serve the web app');
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
