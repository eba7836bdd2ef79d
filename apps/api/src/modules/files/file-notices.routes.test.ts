import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import type { Agent } from '../../../test/agent.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

// Issue 20: the file's own repairs reach the validation result and report.csv, each once with its count;
// equal numbers are no correction; an over-long mapped cell is a row error, never cut.
let ctx: TestContext;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => NOW } });
});
afterAll(() => ctx.close());

const MAPPING = {
  Email: 'email',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
};
const HEADER = 'Email,Event,When,Source,Value,Currency';

async function validated(agent: Agent, content: string | Uint8Array) {
  const up = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('f.csv', content) });
  expect(up.statusCode).toBe(201);
  const id = up.json().file.id as string;
  const m = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  expect(m.statusCode).toBe(200);
  return { id, v: (await agent.get(`/api/uploads/${id}/validate`)).json() };
}

describe('file notices', () => {
  it('names each repair once with its count, in the result and in report.csv', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    // Windows-1252 bytes, CR-only endings, a title line, blank lines, spaces around a header and cells.
    const text = [
      'Report generated 11/21/2026 by Acme CRM',
      ` ${HEADER.replace('Email', 'Email ')}`,
      ' ann@example.com ,Purchase,2026-11-21T10:00:00Z,physical_store,34.60,USD',
      '',
      'zo\xeb@example.com,Lead,2026-11-21T10:00:00Z,physical_store,,',
      '',
      '',
    ].join('\r');
    const { id, v } = await validated(
      agent,
      Uint8Array.from(text, (c) => c.charCodeAt(0)),
    );
    expect(v.error).toBeUndefined();
    expect(v.rowsChecked).toBe(2);
    expect(v.fileNotices.map((n: { code: string }) => n.code)).toEqual([
      'ENCODING_CONVERTED',
      'LINE_ENDINGS',
      'BLANK_LINES',
      'WHITESPACE_TRIMMED',
      'TITLE_SKIPPED',
    ]);
    expect(v.fileNotices).toContainEqual(expect.objectContaining({ code: 'BLANK_LINES', count: 2 }));
    expect(v.fileNotices).toContainEqual(expect.objectContaining({ code: 'WHITESPACE_TRIMMED', count: 2 }));
    expect(v.fileNotices).toContainEqual(
      expect.objectContaining({
        code: 'TITLE_SKIPPED',
        message: expect.stringContaining('Report generated'),
      }),
    );
    const report = (await agent.get(`/api/uploads/${id}/validate/report.csv`)).body as string;
    const lines = report
      .trim()
      .split('\r\n')
      .filter((l) => l.startsWith('"","","file notice",'));
    expect(lines).toHaveLength(5);
    expect(lines.join('\n')).toMatch(/Title lines: 1 line above the header row/);
  });

  it('a file whose only rewrites are equal numbers is clean', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const rows = ['34.60', '33.00', '"1,200.00"'].map(
      (value, i) => `p${i}@example.com,Purchase,2026-11-21T10:00:00Z,physical_store,${value},USD`,
    );
    const { v } = await validated(agent, [HEADER, ...rows].join('\n') + '\n');
    expect(v).toMatchObject({ rowsChecked: 3, rowsWithErrors: 0, rowsCorrected: 0, fileNotices: [] });
  });

  it('an over-long mapped e-mail is a row error, an over-long unmapped cell a notice', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const long = `${'a'.repeat(64)}@${'b'.repeat(300)}.com`;
    const text = `${HEADER},Notes\n${long},Lead,2026-11-21T10:00:00Z,physical_store,,,x\nok@example.com,Lead,2026-11-21T10:00:00Z,physical_store,,,${'n'.repeat(12_000)}\n`;
    const { v } = await validated(agent, text);
    expect(v.rowsWithErrors).toBe(1);
    expect(v.rows[0].errors[0]).toMatchObject({
      field: 'email',
      message: expect.stringMatching(/longer than any real email/),
    });
    expect(v.fileNotices).toEqual([expect.objectContaining({ code: 'LONG_CELLS', count: 1 })]);
  });
});
