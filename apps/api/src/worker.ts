import { loadConfig, ConfigError } from './config/env.ts';
import { startQueue } from './jobs/queue.ts';
import { registerJobs } from './jobs/register-jobs.ts';
import { openRuntime } from './runtime.ts';

/** `npm run worker`: processes background jobs only; run several beside API instances on one PostgreSQL. */
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'npm run worker needs DATABASE_URL: the embedded database cannot be shared between processes.',
    );
  }
  const log = (await import('pino')).default({ level: config.logLevel });
  const { db, mailer } = await openRuntime(config, log);
  const queue = await startQueue(db, config.databaseUrl);
  await registerJobs(queue, { config, db, mailer, queue, now: () => new Date(), fetch });
  log.info('worker started');
  const stop = async () => {
    await queue.stop({ graceful: true, timeout: 30_000 }).catch(() => {});
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
