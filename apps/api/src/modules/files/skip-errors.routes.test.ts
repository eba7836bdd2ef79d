import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** Dropped values apart from corrections, and the opt-in to send a file without its rows with errors. */
let ctx: TestContext;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => NOW } });
});
afterAll(() => ctx.close());

const HEADER = 'Email,Phone,Event,When,Source,Value,Currency';
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
};
const GOOD = (i: number) =>
  `ok${i}@example.com,+16505551${String(i).padStart(3, '0')},Lead,2026-11-21T10:00:00Z,physical_store,,`;
// Accented letters: dropped, but the phone still identifies the customer, so the row is sent.
const ACCENTED = (i: number) =>
  `josé${i}@exämple.com,+16505552${String(i).padStart(3, '0')},Lead,2026-11-21T10:00:00Z,physical_store,,`;
// No usable identifier at all: an error row.
const BAD = 'not-an-email,,Lead,2026-11-21T10:00:00Z,physical_store,,';

/** csvLine quotes every cell: back to cells. */
const cells = (line: string) =>
  line
    .slice(1, -1)
    .split('","')
    .map((c) => c.replaceAll('""', '"'));

async function mappedFile(agent: Agent, lines: string[]) {
  const csv = [HEADER, ...lines].join('\r\n');
  const id = (
    await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('leads.csv', csv) })
  ).json().file.id as string;
  const r = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  expect(r.statusCode).toBe(200);
  return id;
}

describe('dropped values', () => {
  it('are counted per field and reason, apart from corrections, and reported as dropped', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, [
      GOOD(1),
      ACCENTED(2),
      ACCENTED(3),
      'ok4@example.com,6.50555E+09,Lead,2026-11-21T10:00:00Z,physical_store,,',
    ]);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({
      rowsChecked: 4,
      rowsWithErrors: 0,
      rowsWithDrops: 3,
      timeZone: 'UTC',
      skipErrorRows: false,
    });
    expect(v.droppedValues).toEqual([
      {
        field: 'email',
        reason: 'accented_letters',
        count: 2,
        message: "2 emails can't be used: accented letters Meta does not accept",
      },
      {
        field: 'phone',
        reason: 'scientific_notation',
        count: 1,
        message: "1 phone number can't be used: digits lost in a spreadsheet (scientific notation)",
      },
    ]);
    const row3 = v.rows.find((r: { rowNumber: number }) => r.rowNumber === 3);
    expect(row3).toMatchObject({ hasDrops: true, hasCorrections: false, hasErrors: false });
    expect(row3.drops[0]).toMatchObject({
      field: 'email',
      reason: 'accented_letters',
      original: 'josé2@exämple.com',
    });
    const report = await agent.get(`/api/uploads/${id}/validate/report.csv`);
    const lines = report.body.trim().split('\r\n').map(cells);
    expect(lines[0]).toEqual(['row', 'field', 'kind', 'message', 'original', 'corrected', 'reason']);
    expect(lines).toContainEqual([
      '3',
      'email',
      'dropped',
      'Dropped email "josé2@exämple.com": it has accented letters Meta does not accept.',
      'josé2@exämple.com',
      '',
      'accented_letters',
    ]);
  });
});

describe('skipping the rows with errors', () => {
  it('is refused by default, then stored with the upload once chosen: prepare, preview and download leave them out', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, [GOOD(1), BAD, GOOD(3), BAD, GOOD(5)]);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 5, rowsWithErrors: 2, skipErrorRows: false });
    // The email of a row with errors is shown on its row, but not counted as lost: the row is not sent at all.
    expect(v).toMatchObject({ rowsWithDrops: 0, droppedValues: [] });
    // The spec's block stays the default.
    const blocked = await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe('You must fix all errors before continuing.');
    expect((await agent.get(`/api/uploads/${id}/prepare`)).statusCode).toBe(409);

    const chosen = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'validated',
      skipErrorRows: true,
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().status).toBe('validated');
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().skipErrorRows).toBe(true);

    const prepared = await agent.get(`/api/uploads/${id}/prepare`);
    expect(prepared.statusCode).toBe(200);
    expect(prepared.json()).toEqual({
      totalCount: 3,
      status: 'prepared',
      skippedErrorRows: 2,
      skippedRefundRows: 0,
    });

    const preview = (await agent.get(`/api/uploads/${id}/preview?limit=2`)).json();
    expect(preview.totalCount).toBe(3);
    expect(preview.previewDetails).toEqual([
      {
        rowNumber: 2,
        normalized: expect.objectContaining({ email: 'ok1@example.com', phone: '16505551001' }),
      },
      { rowNumber: 4, normalized: expect.objectContaining({ email: 'ok3@example.com' }) },
    ]);
    expect(preview.timeZone).toBe('UTC');

    const full = JSON.parse((await agent.get(`/api/uploads/${id}/preview/full`)).body) as unknown[];
    expect(full).toHaveLength(3);

    const skipped = await agent.get(`/api/uploads/${id}/skipped-rows.csv`);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.headers['content-disposition']).toBe('attachment; filename="skipped-rows.csv"');
    const rows = skipped.body.trim().split('\r\n').map(cells);
    expect(rows[0]).toEqual([...HEADER.split(','), 'Errors']);
    expect(rows).toHaveLength(3);
    expect(rows[1]!.slice(0, 3)).toEqual(['not-an-email', '', 'Lead']);
    expect(rows[1]![7]).toMatch(/No usable customer information/);
  });

  it('is forgotten when the mapping changes, and refused when no row would be left', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, [GOOD(1), BAD]);
    await agent.get(`/api/uploads/${id}/validate`);
    expect(
      (await agent.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: true }))
        .statusCode,
    ).toBe(200);
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { ...MAPPING, Value: 'value' },
      hardcodedValues: { currency: 'USD' },
    });
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().skipErrorRows).toBe(false);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(409);

    const none = await mappedFile(agent, [BAD, BAD]);
    await agent.get(`/api/uploads/${none}/validate`);
    const refused = await agent.patch(`/api/uploads/${none}/status`, {
      status: 'validated',
      skipErrorRows: true,
    });
    expect(refused.statusCode).toBe(409);
  });

  it('answers 400 for a malformed choice, 401 without a session, 403 unverified or without XSRF', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, [GOOD(1), BAD]);
    await agent.get(`/api/uploads/${id}/validate`);
    const bad = await agent.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect((await agent.get(`/api/uploads/${'x'.repeat(65)}/skipped-rows.csv`)).statusCode).toBe(400);
    const anon = new Agent(ctx.app);
    expect((await anon.get(`/api/uploads/${id}/skipped-rows.csv`)).statusCode).toBe(401);
    expect(
      (await anon.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: true }))
        .statusCode,
    ).toBe(401);
    const noXsrf = await agent.patch(
      `/api/uploads/${id}/status`,
      { status: 'validated', skipErrorRows: true },
      { xsrf: false },
    );
    expect(noXsrf.statusCode).toBe(403);
    const unverified = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.agent.get(`/api/uploads/${id}/skipped-rows.csv`)).statusCode).toBe(403);
    // Another user's file is not found, and nothing was chosen for it.
    const other = await loggedInAgent(ctx.app, ctx.db);
    expect((await other.agent.get(`/api/uploads/${id}/skipped-rows.csv`)).statusCode).toBe(404);
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().skipErrorRows).toBe(false);
  });
});
