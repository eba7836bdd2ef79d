import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../src/db/pglite.ts';
import { migrate } from '../src/db/migrate.ts';

/**
 * Migrates one embedded database per test run and hands its dump to every test file: loading a dump takes
 * ~0.6 s where a fresh PGlite plus migrations takes ~3 s. The archive is deleted when the run ends.
 */
export default async function setup(project: TestProject) {
  const db = await openPglite();
  await migrate(db);
  const dump = await db.dump();
  const file = join(tmpdir(), `backsignal-pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  // A 41 MB archive per run used to stay in the temp folder for good.
  return () => rmSync(file, { force: true });
}
