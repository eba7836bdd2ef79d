import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0800 moves every account's data into its own first workspace. The database is built as the release
 * before left it (every migration before 0800), filled with two accounts' rows in every table that holds them, then
 * migrated: every row of every table is still there with the same values, the owned ones under the workspace of
 * their account (decision 0103).
 */
let db: Db;
let drop: () => Promise<void>;
const OWNED = [
  'uploads',
  'mapping_templates',
  'pixel_accounts',
  'send_runs',
  'send_batches',
  'delivery_ledger',
  'usage_events',
  'sources',
  'source_runs',
  'upload_jobs',
];

async function fillAccount(email: string, company: string): Promise<string> {
  const user = randomUUID();
  const [upload, template, pixel, run, source, sourceRun] = Array.from({ length: 6 }, () => randomUUID());
  await db.query(
    `insert into users (id, email, first_name, last_name, company, password_hash, email_verified)
     values ($1, $2, 'Ada', 'Lovelace', $3, 'x', true)`,
    [user, email, company],
  );
  await db.query(
    `insert into sessions (token_hash, user_id, expires_at) values ($1, $2, now() + interval '1 hour')`,
    [`t-${user}`, user],
  );
  await db.query(
    `insert into uploads (id, user_id, file_name, status, complete, headers) values ($1, $2, 'leads.csv', 'prepared', true, '["email"]')`,
    [upload, user],
  );
  await db.query(`insert into upload_chunks (upload_id, seq, data) values ($1, 0, '\\x656d61696c')`, [
    upload,
  ]);
  await db.query(
    `insert into mapping_templates (id, user_id, name, mappings) values ($1, $2, 'Mine', '{"Email":"email"}')`,
    [template, user],
  );
  await db.query(
    `insert into pixel_accounts (id, user_id, name, pixel_id, token_ciphertext, token_iv, token_tag, key_version, token_last4)
     values ($1, $2, 'Main', '123456789', '\\x01', '\\x02', '\\x03', 1, 'abcd')`,
    [pixel, user],
  );
  await db.query(
    `insert into send_runs (id, user_id, upload_id, pixel_account_id, pixel_id, status, total_events)
     values ($1, $2, $3, $4, '123456789', 'completed', 2)`,
    [run, user, upload, pixel],
  );
  await db.query(
    `insert into send_batches (id, run_id, user_id, idx, row_numbers, first_row, last_row, event_count, status, payload_hash)
     values ($1, $2, $3, 0, '{2,3}', 2, 3, 2, 'sent', 'h')`,
    [randomUUID(), run, user],
  );
  // Both accounts sent the same event to the same pixel: the ledger's new key must keep both rows.
  await db.query(
    `insert into delivery_ledger (user_id, pixel_id, event_name, event_id, run_id) values ($1, '123456789', 'Lead', 'e1', $2), ($1, '123456789', 'Lead', 'e2', $2)`,
    [user, run],
  );
  await db.query(
    `insert into usage_events (user_id, action, amount, at) values ($1, 'upload', 1, now()), ($1, 'send', 2, now())`,
    [user],
  );
  await db.query(
    `insert into sources (id, user_id, name, kind, connection, settings, pixel_account_id, schedule, time_zone)
     values ($1, $2, 'CRM', 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', $3, '{"every":"day"}', 'UTC')`,
    [source, user, pixel],
  );
  await db.query(
    `insert into source_runs (id, source_id, user_id, trigger, status, upload_id, send_run_id)
     values ($1, $2, $3, 'manual', 'sent', $4, $5)`,
    [sourceRun, source, user, upload, run],
  );
  await db.query(`insert into source_seen (source_id, item_key) values ($1, 'a.csv')`, [source]);
  await db.query(`insert into source_bad_rows (source_id, row_hash) values ($1, 'abc')`, [source]);
  await db.query(
    `insert into upload_jobs (id, upload_id, user_id, kind, status, fingerprint, claim_token, rows_total)
     values ($1, $2, $3, 'validate', 'done', 'f', 'c', 2)`,
    [randomUUID(), upload, user],
  );
  return user;
}

/** Every public table's rows as sorted JSON lines, the owned tables' user_id read as workspace_id. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'
      order by table_name`,
  );
  const out: Record<string, string[]> = {};
  for (const { table_name } of tables.rows) {
    if (table_name === 'workspaces' || table_name === 'workspace_members') continue;
    const rows = await db.query<{ j: Record<string, unknown> }>(
      `select to_jsonb(t) as j from ${table_name} t`,
    );
    out[table_name] = rows.rows
      .map(({ j }) => {
        const { user_id, workspace_id, started_by: _new, current_workspace_id: _newToo, ...rest } = j;
        const owner = OWNED.includes(table_name) ? { workspace_id: workspace_id ?? user_id } : { user_id };
        return JSON.stringify(Object.fromEntries(Object.entries({ ...rest, ...owner }).sort()));
      })
      .sort();
  }
  return out;
}

let before: Record<string, string[]>;
let ada: string;
let grace: string;

beforeAll(async () => {
  ({ db, drop } = await openTestDb({ before: '0800_workspaces.sql' }));
  ada = await fillAccount('ada@example.com', 'Acme Plumbing');
  grace = await fillAccount('grace@example.com', '');
  before = await snapshot();
  // 0800 alone: later migrations add tables of their own (0820's activity log), which this comparison is not about.
  await migrate(db, { before: '0801' });
});
afterAll(() => drop());

describe('0800_workspaces', () => {
  it('keeps every row of every table with its values', async () => {
    const after = await snapshot();
    expect(Object.keys(after)).toEqual(expect.arrayContaining(Object.keys(before)));
    // Tables later migrations add (invitations, 0810) start empty: no row appeared from nowhere.
    for (const table of Object.keys(after).filter((t) => !(t in before)))
      expect(after[table], table).toEqual([]);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    // Nothing vacuous: each owned table held both accounts' rows.
    for (const table of OWNED) expect(before[table]!.length, table).toBeGreaterThanOrEqual(2);
  });

  it("gives each account its own first workspace, with the account's id, owned by it", async () => {
    const w = await db.query<{ id: string; name: string; slug: string; role: string; current: string }>(
      `select w.id, w.name, w.slug, m.role, u.current_workspace_id as current
         from workspaces w join workspace_members m on m.workspace_id = w.id join users u on u.id = m.user_id
        order by w.name`,
    );
    expect(w.rows).toEqual([
      {
        id: ada,
        name: 'Acme Plumbing',
        slug: `acme-plumbing-${ada.replace(/-/g, '').slice(0, 8)}`,
        role: 'owner',
        current: ada,
      },
      {
        id: grace,
        name: 'Ada Lovelace',
        slug: `ada-lovelace-${grace.replace(/-/g, '').slice(0, 8)}`,
        role: 'owner',
        current: grace,
      },
    ]);
    for (const table of OWNED) {
      const r = await db.query<{ workspace_id: string; n: number }>(
        `select workspace_id, count(*)::int as n from ${table} group by workspace_id order by workspace_id`,
      );
      expect(r.rows.map((x) => x.workspace_id).sort(), table).toEqual([ada, grace].sort());
    }
    const started = await db.query<{ n: number }>(
      'select count(*)::int as n from send_runs where started_by = workspace_id',
    );
    expect(started.rows[0]!.n).toBe(2);
  });

  it('deletes a workspace with everything it owns, through the new foreign keys', async () => {
    await db.query('delete from delivery_ledger where workspace_id = $1', [grace]);
    await db.query('delete from workspaces where id = $1', [grace]);
    for (const table of OWNED) {
      const r = await db.query<{ n: number }>(
        `select count(*)::int as n from ${table} where workspace_id = $1`,
        [grace],
      );
      expect(r.rows[0]!.n, table).toBe(0);
    }
    const kept = await db.query<{ n: number }>(
      'select count(*)::int as n from uploads where workspace_id = $1',
      [ada],
    );
    expect(kept.rows[0]!.n).toBe(1);
  });
});
