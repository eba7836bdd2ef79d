import PgBoss from 'pg-boss';
import type { Db } from '../db/db.ts';

/**
 * pg-boss on the same database as everything else. On PGlite it runs through our single connection
 * (pg-boss sends multi-statement SQL without parameters, which PGlite only accepts through exec).
 */
export async function startQueue(db: Db, databaseUrl: string | undefined): Promise<PgBoss> {
  const boss = databaseUrl
    ? new PgBoss({ connectionString: databaseUrl, max: 4 })
    : new PgBoss({
        db: {
          async executeSql(text: string, values: unknown[]) {
            if (values && values.length > 0) return db.query(text, values);
            return db.exec(text);
          },
        },
      });
  boss.on('error', (err) => console.error('queue error', err));
  await boss.start();
  return boss;
}
