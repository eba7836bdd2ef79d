import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS, serverEnv } from '../../../scripts/server-process.mjs';

/** What a server process started with `env` reads as its malloc mmap threshold. */
const thresholdSeen = (env: NodeJS.ProcessEnv) =>
  execFileSync(process.execPath, ['-p', 'process.env.MALLOC_MMAP_THRESHOLD_'], {
    env,
    encoding: 'utf8',
  }).trim();

describe('how the server process starts (scripts/server-process.mjs)', () => {
  it('with flags this Node accepts (a bad one would stop `npm start`)', () => {
    const heap = execFileSync(
      process.execPath,
      [...SERVER_NODE_ARGS, '-p', "require('v8').getHeapStatistics().total_heap_size > 0"],
      { encoding: 'utf8' },
    );
    expect(heap.trim()).toBe('true');
  });

  it('fixes the allocator mmap threshold at 128 KB, so large freed blocks go back to the system', () => {
    const { MALLOC_MMAP_THRESHOLD_: _, ...rest } = process.env;
    expect(thresholdSeen(serverEnv(rest))).toBe('131072');
  });

  it("keeps an operator's own value and every other variable", () => {
    const env = serverEnv({ PATH: process.env.PATH, MALLOC_MMAP_THRESHOLD_: '262144', PORT: '4100' });
    expect(thresholdSeen(env)).toBe('262144');
    expect(env.PORT).toBe('4100');
  });
});
