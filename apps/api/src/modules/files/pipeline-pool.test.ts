import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from './pipeline-pool.ts';

class FakeWorker extends EventEmitter {
  terminated = false;
  refs = 0;
  terminate() {
    this.terminated = true;
    return Promise.resolve(0);
  }
  ref() {
    this.refs++;
  }
  unref() {
    this.refs--;
  }
}

const pool = (size: number, keepIdleMaxBytes?: number) => {
  const made: FakeWorker[] = [];
  const p = new WorkerPool(
    size,
    () => {
      const w = new FakeWorker();
      made.push(w);
      return w as unknown as Worker;
    },
    keepIdleMaxBytes,
  );
  return { p, made };
};

describe('WorkerPool', () => {
  it('runs at most `size` jobs at once and queues the rest in order', async () => {
    const { p, made } = pool(2);
    const a = await p.acquire();
    const b = await p.acquire();
    const order: string[] = [];
    const c = p.acquire().then((w) => (order.push('c'), w));
    const d = p.acquire().then((w) => (order.push('d'), w));
    await Promise.resolve();
    expect(p.stats()).toMatchObject({ busy: 2, queued: 2, started: 2 });
    p.release(a, true);
    expect(await c).toBe(a); // the finished worker is reused, not a new thread
    p.release(b, true);
    expect(await d).toBe(b);
    expect(order).toEqual(['c', 'd']);
    expect(made).toHaveLength(2);
    expect(p.stats().peakBusy).toBe(2);
  });

  it('ends a worker that read a large file instead of keeping it idle, unless a job waits for it', async () => {
    const { p, made } = pool(1, 1000);
    const a = await p.acquire();
    p.release(a, true, 1000);
    expect(p.stats()).toMatchObject({ busy: 0, idle: 1 });
    const b = await p.acquire();
    expect(b).toBe(a);
    const waiting = p.acquire();
    p.release(b, true, 1001);
    expect(await waiting).toBe(a);
    expect(made[0]!.terminated).toBe(false);
    p.release(a, true, 1001);
    expect(made[0]!.terminated).toBe(true);
    expect(p.stats()).toMatchObject({ busy: 0, idle: 0 });
  });

  it('ends a worker left mid-job and starts a fresh one for the next', async () => {
    const { p, made } = pool(1);
    const a = await p.acquire();
    const next = p.acquire();
    p.release(a, false);
    const b = await next;
    expect((a as unknown as FakeWorker).terminated).toBe(true);
    expect(b).not.toBe(a);
    expect(made).toHaveLength(2);
    p.release(b, true);
    expect(p.stats()).toMatchObject({ busy: 0, idle: 1 });
    expect(await p.acquire()).toBe(b);
  });
});

describe('WorkerPool idle workers', () => {
  it('drops an idle worker that dies, without an unhandled error', async () => {
    const { p } = pool(1);
    const a = (await p.acquire()) as unknown as FakeWorker;
    p.release(a as unknown as Worker, true);
    expect(p.stats().idle).toBe(1);
    a.emit('error', new Error('crashed'));
    expect(p.stats().idle).toBe(0);
    expect(await p.acquire()).not.toBe(a);
  });
});
