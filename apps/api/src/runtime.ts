import { join } from 'node:path';
import type { Config } from './config/env.ts';
import type { Db } from './db/db.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { outboxMailer, smtpMailer, type Mailer } from './integrations/mailer.ts';
import { sealLegacyUrlSecrets } from './modules/sources/sources.service.ts';

export interface Runtime {
  db: Db;
  mailer: Mailer;
}

/**
 * Opens the database, applies migrations, seals CSV URL secrets stored plain before decision 0102 and picks the
 * mailer: shared by the server and the worker.
 */
export async function openRuntime(
  config: Config,
  log: { info: (obj: object, msg: string) => void },
): Promise<Runtime> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  // Needs the token key, so it is no SQL migration; it finds nothing to do once every row was sealed.
  const sealed = await sealLegacyUrlSecrets({ db, config });
  if (sealed) log.info({ sealed }, 'source URL secrets sealed');
  const mailer = config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : outboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, {
        info: (obj: object, msg?: string) => log.info(obj, msg ?? ''),
      } as never);
  return { db, mailer };
}
