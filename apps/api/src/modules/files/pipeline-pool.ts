import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { bundledWorker } from '../../lib/bundled-worker.ts';

const startPipelineWorker = bundledWorker(new URL('./pipeline.worker.ts', import.meta.url));
/** Idle workers are ended after this long, so a quiet server holds no threads. */
const IDLE_MS = 30_000;
/**
 * A worker that has just streamed more than this is ended rather than kept idle when no job waits for it: after a
 * 1,000,000-row validation it held ~75 MB of resident memory until its idle timer ended it, overlapping the send
 * that follows (peak RSS 494 → 417 MB the moment it went). Its next job is a new file, minutes away; a new worker
 * starts in ~0.1 s.
 */
const KEEP_IDLE_MAX_BYTES = 32 * 1024 * 1024;

export interface PoolStats {
  size: number;
  busy: number;
  idle: number;
  queued: number;
  /** Most workers ever busy at once, and workers ever started: what tests and ops look at. */
  peakBusy: number;
  started: number;
}

/**
 * A small shared pool of pipeline workers: at most `size` files are read at once, whatever the number of
 * requests; the rest wait their turn in order. Workers are reused between jobs and ended when idle.
 */
export class WorkerPool {
  private readonly idle: { worker: Worker; timer: ReturnType<typeof setTimeout> }[] = [];
  private readonly queue: ((worker: Worker) => void)[] = [];
  private busy = 0;
  private peakBusy = 0;
  private started = 0;

  constructor(
    readonly size: number,
    private readonly spawn: () => Worker = () => startPipelineWorker(),
    private readonly keepIdleMaxBytes = KEEP_IDLE_MAX_BYTES,
  ) {}

  /** A worker for one job; waits while `size` jobs are running. */
  acquire(): Promise<Worker> {
    if (this.busy < this.size) {
      this.busy++;
      this.peakBusy = Math.max(this.peakBusy, this.busy);
      return Promise.resolve(this.take());
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  /**
   * Gives the worker back after a job that read `bytesRead` of file. A worker that failed or was left mid-job
   * (`reusable` false) is ended; so is one that read a large file, unless a job is waiting for it.
   */
  release(worker: Worker, reusable: boolean, bytesRead = 0): void {
    if (!reusable) {
      void worker.terminate();
    }
    const next = this.queue.shift();
    if (next) {
      // The slot passes straight to the next job in line.
      next(reusable ? this.ref(worker) : this.take());
      return;
    }
    this.busy--;
    if (!reusable) return;
    if (bytesRead > this.keepIdleMaxBytes) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => {
      const i = this.idle.findIndex((e) => e.worker === worker);
      if (i >= 0) this.idle.splice(i, 1);
      void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.idle.push({ worker, timer });
  }

  stats(): PoolStats {
    return {
      size: this.size,
      busy: this.busy,
      idle: this.idle.length,
      queued: this.queue.length,
      peakBusy: this.peakBusy,
      started: this.started,
    };
  }

  /** Ends idle workers (shutdown). */
  async close(): Promise<void> {
    const all = this.idle.splice(0);
    for (const e of all) clearTimeout(e.timer);
    await Promise.all(all.map((e) => e.worker.terminate()));
  }

  private take(): Worker {
    const e = this.idle.pop();
    if (e) {
      clearTimeout(e.timer);
      return this.ref(e.worker);
    }
    this.started++;
    const worker = this.spawn();
    // A worker that dies while idle leaves the pool (and its error never goes unhandled).
    const drop = () => {
      const i = this.idle.findIndex((x) => x.worker === worker);
      if (i >= 0) clearTimeout(this.idle.splice(i, 1)[0]!.timer);
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    return worker;
  }

  private ref(worker: Worker): Worker {
    worker.ref();
    return worker;
  }
}

const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism()));

/**
 * The process-wide pools, min(2, cores) workers each. 'requests' serves validation, report, prepare and
 * previews; 'background' serves delivery, whose jobs hold a worker for as long as Meta takes to accept the
 * batches, so two long sends can never make every validation wait behind them.
 */
export const pipelinePools = {
  requests: new WorkerPool(POOL_SIZE),
  background: new WorkerPool(POOL_SIZE),
} as const;
export type PipelineLane = keyof typeof pipelinePools;
