import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './open.ts';
import { initPgliteDir } from './pglite-init.ts';

const root = mkdtempSync(join(tmpdir(), 'bs-pglite-init-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('embedded database on a fresh data directory', () => {
  it('is created by a child process, once, and then opens in this one', async () => {
    const dir = join(root, 'a');
    expect(await initPgliteDir(dir)).toBe(true);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    expect(await initPgliteDir(dir)).toBe(false);
  }, 120_000);

  it('openDatabase initialises DATA_DIR/pglite and keeps what was written', async () => {
    const db = await openDatabase({ dataDir: root });
    await db.exec('create table kept (v text)');
    await db.query('insert into kept values ($1)', ['x']);
    await db.close();
    const again = await openDatabase({ dataDir: root });
    expect((await again.query<{ v: string }>('select v from kept')).rows).toEqual([{ v: 'x' }]);
    await again.close();
  }, 120_000);
});
