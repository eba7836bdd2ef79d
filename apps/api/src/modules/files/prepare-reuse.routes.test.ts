import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import type { Agent } from '../../../test/agent.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** Issue 22, item 4: prepare does not read a file again when a clean validation of it still holds. */
let ctx: TestContext;
const VALIDATED = new Date('2026-11-22T12:00:00Z');
let clock = VALIDATED;
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => clock } });
});
afterAll(() => ctx.close());

const HOUR = 3_600_000;
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
// The first event to leave Meta's window: phone_call (7 days) at 2026-11-22T14:00:00Z, two hours after the
// validation. The store event is older but has 62 days.
const AGES_OUT = new Date('2026-11-22T14:00:00Z');
const CSV = [
  'Email,Event,When,Source',
  'a@example.com,Lead,2026-11-15T14:00:00Z,phone_call',
  'b@example.com,Lead,2026-11-21T10:00:00Z,phone_call',
  'c@example.com,Lead,2026-11-01T10:00:00Z,physical_store',
  'a@example.com,Lead,2026-11-15T14:00:00Z,phone_call',
].join('\r\n');

async function validatedFile(agent: Agent) {
  clock = VALIDATED;
  const id = (
    await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('leads.csv', CSV) })
  ).json().file.id as string;
  await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
  expect(v).toMatchObject({ rowsChecked: 4, rowsWithErrors: 0 });
  expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  return id;
}

/** The stored bytes are gone: a prepare that read the file again would find no rows to send. */
const dropBytes = (id: string) => ctx.db.query('delete from upload_chunks where upload_id = $1', [id]);

describe('prepare after a clean validation', () => {
  it('answers from the validation while no event has left the window, without reading the file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await validatedFile(agent);
    await dropBytes(id);
    clock = new Date(AGES_OUT.getTime() - HOUR);
    const r = await agent.get(`/api/uploads/${id}/prepare`);
    expect(r.statusCode).toBe(200);
    // Four rows, one repeating an earlier row's event: three to send.
    expect(r.json()).toMatchObject({ status: 'prepared', totalCount: 3, skippedErrorRows: 0 });
  });

  it('reads the file again once an accepted event has aged out, and sends the user back to validation', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await validatedFile(agent);
    clock = new Date(AGES_OUT.getTime() + 1000);
    const r = await agent.get(`/api/uploads/${id}/prepare`);
    expect(r.statusCode).toBe(409);
    // The first row and its repeat.
    expect(r.json().message).toMatch(/2 rows no longer pass validation/);
    expect((await agent.get(`/api/uploads/${id}`)).json().status).toBe('mapped');
  });
});
