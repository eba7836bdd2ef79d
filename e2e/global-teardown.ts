import { readdirSync, rmSync } from 'node:fs';

/** Removes what this run made: its data folder (unless E2E_DATA_DIR named one) and an empty artifacts folder. */
export default function teardown() {
  if (process.env.E2E_DATA_DIR_OWNED === '1' && process.env.E2E_DATA_DIR)
    rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
  const results = `test-results/${process.env.E2E_PORT}`;
  try {
    if (readdirSync(results).length === 0) rmSync(results, { recursive: true });
  } catch {
    /* no artifacts folder */
  }
}
