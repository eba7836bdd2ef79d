import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (GET /metrics, issue 30). Counters that code increments as things happen live
 * here, one registry per process; what the database knows (runs in flight, queues, source runs) is read when
 * scraped (modules/system/metrics.service.ts), so every instance reports the same figures for those.
 */
export const registry = new Registry();
// Process memory, CPU, event-loop lag, heap and GC, as prom-client measures them.
collectDefaultMetrics({ register: registry, prefix: 'backsignal_' });

const registers = [registry];

export const httpRequests = new Counter({
  name: 'backsignal_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'backsignal_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

export const metaEvents = new Counter({
  name: 'backsignal_meta_events_total',
  help: 'Events whose batch outcome was committed: sent (Meta took them) or failed (refused or out of attempts)',
  labelNames: ['outcome'] as const,
  registers,
});

export const metaBatchDuration = new Histogram({
  name: 'backsignal_meta_batch_duration_seconds',
  help: 'Time of one events request to Meta, by what its answer meant (sent, throttled, retry, stop, split)',
  labelNames: ['answer'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  registers,
});

export const sendRunsInFlight = new Gauge({
  name: 'backsignal_send_runs_in_flight',
  help: 'Send runs not yet finished, in the whole database',
  registers,
});

export const jobQueueDepth = new Gauge({
  name: 'backsignal_job_queue_depth',
  help: 'Jobs waiting to start, by queue (pg-boss queues; upload_jobs for validation and prepare)',
  labelNames: ['queue'] as const,
  registers,
});

export const jobQueueOldest = new Gauge({
  name: 'backsignal_job_queue_oldest_seconds',
  help: 'Age of the oldest job waiting to start, by queue',
  labelNames: ['queue'] as const,
  registers,
});

export const sourceRuns = new Gauge({
  name: 'backsignal_source_runs_last_24h',
  help: 'Source runs started in the last 24 hours, by outcome',
  labelNames: ['outcome'] as const,
  registers,
});

export const sourceRunDelay = new Gauge({
  name: 'backsignal_source_run_delay_seconds',
  help: 'Delay from a scheduled run being due to its start, over runs started in the last hour (p50, p99, max)',
  labelNames: ['stat'] as const,
  registers,
});

export const dbConnections = new Gauge({
  name: 'backsignal_db_connections',
  help: "This process's database connections: total, idle, and statements or clients waiting for one",
  labelNames: ['state'] as const,
  registers,
});
