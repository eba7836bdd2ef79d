import type { Queryable } from '../../db/db.ts';

export interface QueueFigure {
  queue: string;
  depth: number;
  oldest: number;
}

/** What the database knows for /metrics: the same figures whichever instance is scraped. */
export const metricsRepo = {
  async sendRunsInFlight(db: Queryable): Promise<number> {
    const r = await db.query<{ n: number }>(
      `select count(*)::int as n from send_runs where status = 'running'`,
    );
    return r.rows[0]!.n;
  },

  /** Jobs waiting to start: validation and prepare jobs not yet reading, and pg-boss jobs due and not taken. */
  async queues(db: Queryable): Promise<QueueFigure[]> {
    const uploads = await db.query<QueueFigure>(
      `select 'upload_jobs:' || kind as queue, count(*)::int as depth,
              coalesce(extract(epoch from now() - min(started_at)), 0)::float8 as oldest
         from upload_jobs where status = 'running' and stage = 'queued' group by kind`,
    );
    // pg-boss creates its schema when a process that runs jobs first starts; an API-only database may lack it.
    const present = await db.query<{ present: boolean }>(
      `select to_regclass('pgboss.job') is not null as present`,
    );
    if (!present.rows[0]!.present) return uploads.rows;
    const boss = await db.query<QueueFigure>(
      `select name as queue, count(*)::int as depth,
              coalesce(extract(epoch from now() - min(created_on)), 0)::float8 as oldest
         from pgboss.job where state in ('created', 'retry') and start_after <= now() group by name`,
    );
    return [...uploads.rows, ...boss.rows];
  },

  async sourceRunsByOutcome(db: Queryable): Promise<{ outcome: string; n: number }[]> {
    const r = await db.query<{ outcome: string; n: number }>(
      `select status as outcome, count(*)::int as n from source_runs
        where started_at > now() - interval '24 hours' group by status`,
    );
    return r.rows;
  },

  /** Seconds from due to start of scheduled runs started in the last hour; nulls when there were none. */
  async sourceRunDelay(
    db: Queryable,
  ): Promise<{ p50: number | null; p99: number | null; max: number | null }> {
    const r = await db.query<{ p50: number | null; p99: number | null; max: number | null }>(
      `select percentile_cont(0.5) within group (order by d) as p50,
              percentile_cont(0.99) within group (order by d) as p99, max(d) as max
         from (select extract(epoch from started_at - due_at)::float8 as d from source_runs
                where due_at is not null and started_at > now() - interval '1 hour') delays`,
    );
    return r.rows[0]!;
  },
};
