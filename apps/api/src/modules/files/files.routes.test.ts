import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '@backsignal/core';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { filesRepo } from './files.repo.ts';
import { runPipeline } from './pipeline.ts';
import { pipelinePools } from './pipeline-pool.ts';

let ctx: TestContext;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => NOW }, env: { MAX_UPLOAD_MB: '0.05' } });
});
afterAll(() => ctx.close());

const CSV = [
  'Email,Phone,Event,When,Source,Value,Currency',
  'ann@example.com,(650)555-1212,Purchase,2026-11-21T10:00:00Z,physical_store,"$1,200.00",usd',
  'bob@example.com,6505551213,purchase,11/20/2026,In Store,99,USD',
  'not-an-email,,Lead,2026-11-21T10:00:00Z,physical_store,,',
].join('\r\n');
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
};

async function upload(
  agent: Agent,
  content: string | Uint8Array = CSV,
  name = 'leads.csv',
  type = 'text/csv',
) {
  return agent.request({ method: 'POST', url: '/api/upload', ...multipartFile(name, content, type) });
}

async function mapped(agent: Agent, content: string = CSV) {
  const id = (await upload(agent, content)).json().file.id as string;
  const r = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  expect(r.statusCode).toBe(200);
  return id;
}

describe('upload and list', () => {
  it('stores a CSV and lists it with its status, newest first, paginated', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const res = await upload(agent);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Uploaded: leads.csv',
      headers: ['Email', 'Phone', 'Event', 'When', 'Source', 'Value', 'Currency'],
      file: { fileName: 'leads.csv', status: 'uploaded', rowCount: 3 },
    });
    for (let i = 0; i < 11; i++) await upload(agent, CSV, `f${i}.csv`);
    const page1 = await agent.get('/api/uploads?limit=10&offset=0');
    expect(page1.json().total).toBe(12);
    expect(page1.json().uploads).toHaveLength(10);
    expect(page1.json().uploads[0].fileName).toBe('f10.csv');
    expect((await agent.get('/api/uploads?limit=10&offset=10')).json().uploads).toHaveLength(2);
  });

  it('limits each user to 30 uploads a minute, without holding up anyone else', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await upload(agent, 'email\na@b.co\n', `r${i}.csv`)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 201)).toBe(true);
    expect(codes[30]).toBe(429);
    const other = await loggedInAgent(ctx.app, ctx.db);
    expect((await upload(other.agent)).statusCode).toBe(201);
  });

  it.each([
    ['semicolon', 'email;event_name\na@b.co;Lead\n', ['email', 'event_name']],
    ['tab', 'email\tevent_name\na@b.co\tLead\n', ['email', 'event_name']],
    ['pipe', 'email|event_name\na@b.co|Lead\n', ['email', 'event_name']],
  ])('reads a %s-delimited file', async (_n, text, headers) => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    expect((await upload(agent, text)).json().headers).toEqual(headers);
  });

  it('reads UTF-16 and Windows-1252 files', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const text = 'name,city\nJosé,Köln\n';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const a = await upload(agent, utf16);
    expect(a.statusCode).toBe(201);
    const id = a.json().file.id;
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().samples).toEqual({
      name: ['José'],
      city: ['Köln'],
    });
    const cp1252 = Buffer.from([...Buffer.from('name\nCaf'), 0xe9, 0x0a]);
    const b = await upload(agent, cp1252);
    expect((await agent.get(`/api/uploads/${b.json().file.id}/headers`)).json().samples).toEqual({
      name: ['Café'],
    });
  });

  it('reads UTF-8 with a BOM and UTF-16BE files, without the BOM in the first header', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const text = 'Email,City\nann@example.com,Zürich\n';
    const bom = await upload(
      agent,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
    );
    expect(bom.statusCode).toBe(201);
    expect(bom.json().headers).toEqual(['Email', 'City']);
    const be = Buffer.from(text, 'utf16le').swap16();
    const utf16be = await upload(agent, Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    expect(utf16be.statusCode).toBe(201);
    expect(utf16be.json().headers).toEqual(['Email', 'City']);
    const h = (await agent.get(`/api/uploads/${utf16be.json().file.id}/headers`)).json();
    expect(h.samples).toEqual({ Email: ['ann@example.com'], City: ['Zürich'] });
  });

  it('refuses files that are not CSV, empty, header-only or binary, keeping nothing', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const wrongType = await upload(
      agent,
      CSV,
      'leads.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe('Invalid file type. Please upload a CSV file.');
    expect((await upload(agent, '')).json().message).toMatch(/The file is empty/);
    expect((await upload(agent, 'email,phone\n')).json().message).toMatch(/no data rows/);
    const png = await upload(agent, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.statusCode).toBe(400);
    expect(png.json().message).toMatch(/PNG image/);
    expect((await agent.get('/api/uploads')).json().total).toBe(0);
    const r = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from uploads u join users x on x.id = u.workspace_id where x.id = $1',
      [(await agent.get('/auth/me')).json().user.id],
    );
    expect(r.rows[0]!.n).toBe(0);
  });

  it.each([
    ['a CSV type whatever the name', 'export.txt', 'text/csv', 201],
    ['the Excel CSV type', 'export.txt', 'application/vnd.ms-excel', 201],
    ['an odd type for a .csv name', 'leads.csv', 'application/x-unknown', 201],
    ['octet-stream for a .csv name', 'leads.csv', 'application/octet-stream', 201],
    ['another type without a .csv name', 'leads.txt', 'text/plain', 400],
  ])('accepts or refuses an upload by type and name: %s', async (_n, name, type, status) => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const res = await upload(agent, CSV, name, type);
    expect(res.statusCode).toBe(status);
    if (status === 400) expect(res.json().message).toBe('Invalid file type. Please upload a CSV file.');
  });

  it('refuses a corrected file whose name does not end in .csv', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const res = await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('fixed.txt', CSV, 'text/csv'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please upload a valid .csv file.');
  });

  it('answers a JSON body over its limit with its own limit, not the file text (issue 21)', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    const res = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: { x: 'y'.repeat(1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The request is too large. Max size is 1MB.');
  });

  it('refuses a file over the size limit with 413 and keeps nothing of it', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const big = 'email\n' + 'someone@example.com\n'.repeat(4000); // ~80 KB > 0.05 MB
    const res = await upload(agent, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File is too large. Max size is 0.1MB.');
    const chunks = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from upload_chunks c join uploads u on u.id = c.upload_id where not u.complete',
    );
    expect(chunks.rows[0]!.n).toBe(0);
  });

  it('needs a session, a verified email and the XSRF header', async () => {
    expect((await new Agent(ctx.app).get('/api/uploads')).statusCode).toBe(401);
    const unverified = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.agent.get('/api/uploads')).statusCode).toBe(403);
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const res = await agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('a.csv', CSV),
      xsrf: false,
    });
    expect(res.statusCode).toBe(403);
  });

  it('deletes a file with everything derived from it', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    expect((await agent.delete(`/api/uploads/${id}`)).json().message).toBe('File deleted!');
    expect((await agent.get(`/api/uploads/${id}`)).statusCode).toBe(404);
    const r = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from upload_chunks where upload_id = $1',
      [id],
    );
    expect(r.rows[0]!.n).toBe(0);
  });
});

describe('mapping and status', () => {
  it('returns headers, samples and no saved mapping at first', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    const h = (await agent.get(`/api/uploads/${id}/headers`)).json();
    expect(h).toMatchObject({
      saved: false,
      mappings: {},
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
    });
    expect(h.samples.Email).toEqual(['ann@example.com', 'bob@example.com', 'not-an-email']);
  });

  it('keeps which fields are still as suggested with the mapping, and forgets them for a mapping sent without', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().autoMapped).toEqual({});
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: { Email: 'email' },
      hardcodedValues: {},
      autoMapped: { email: 'Email' },
    });
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().autoMapped).toEqual({ email: 'Email' });
    // Settings alone keep them; a new mapping without flags is all the user's own.
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
    });
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().autoMapped).toEqual({ email: 'Email' });
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: { Email: 'email' },
      hardcodedValues: {},
    });
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().autoMapped).toEqual({});
    const tooLong = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      autoMapped: { email: 'x'.repeat(501) },
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('auto-saves as uploaded, refuses mapped while the spec rules fail, and accepts a complete mapping', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    const save = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: { Email: 'email' },
      hardcodedValues: {},
    });
    expect(save.statusCode).toBe(200);
    const refused = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { Email: 'email' },
      hardcodedValues: {},
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Missing required fields: event_name, event_time, action_source');
    const ok = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: MAPPING,
      hardcodedValues: {},
      settings: { timeZone: 'America/Chicago', dateOrder: 'DMY', defaultCountry: 'us' },
    });
    expect(ok.json()).toMatchObject({ status: 'mapped', message: 'File marked as mapped' });
    const h = (await agent.get(`/api/uploads/${id}/headers`)).json();
    expect(h).toMatchObject({
      saved: true,
      mappings: MAPPING,
      settings: { timeZone: 'America/Chicago', defaultCountry: 'US' },
    });
    const badZone = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      settings: { timeZone: 'Mars/Base', dateOrder: 'MDY', defaultCountry: 'US' },
    });
    expect(badZone.json().message).toBe('Unknown time zone "Mars/Base".');
  });

  it('refuses to validate a file that is still only uploaded, pointing back to mapping', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = (await upload(agent)).json().file.id;
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: MAPPING,
      hardcodedValues: {},
    });
    const v = await agent.get(`/api/uploads/${id}/validate`);
    expect(v.statusCode).toBe(409);
    expect(v.json()).toMatchObject({
      code: 'INVALID_STATE',
      message: 'Please finish mapping this file before validating it.',
    });
    const early = await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Please finish mapping this file before validating it.');
  });

  it('refuses validated before a clean validation, and statuses the client may not set', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const early = await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('You must fix all errors before continuing.');
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'submitted' })).statusCode).toBe(400);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'prepared' })).statusCode).toBe(400);
  });
});

describe('validation, report, prepare and preview', () => {
  it('validates with counts, problem rows and match quality', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 3, rowsWithErrors: 1, rowsCorrected: 2, rowsWithDrops: 0 });
    expect(v.rows).toHaveLength(3);
    const bad = v.rows.find((r: { rowNumber: number }) => r.rowNumber === 4);
    // The email that cannot be used is dropped, not corrected.
    expect(bad).toMatchObject({ hasErrors: true, hasCorrections: false, hasDrops: true });
    expect(bad.errors[0].message).toMatch(/No usable customer information/);
    expect(v.quality).toMatchObject({ rows: 2 });
  });

  it('fills the 10-row preview with error rows first, then corrected rows, and leaves warning-only rows out', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const corrected = Array.from(
      { length: 12 },
      (_, i) =>
        `c${i}@example.com,(650)555-12${String(i).padStart(2, '0')},Purchase,2026-11-21T10:00:00Z,physical_store,99,usd`,
    );
    const lines = [
      CSV.split('\r\n')[0]!,
      ...corrected, // rows 2-13: corrected only
      'warn@example.com,,Purchase,2026-09-22T00:00:00Z,physical_store,99,USD', // row 14: about to age out (warning only)
      'not-an-email,,Lead,2026-11-21T10:00:00Z,physical_store,,', // row 15: error
    ];
    const id = await mapped(agent, lines.join('\r\n'));
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 14, rowsWithErrors: 1, rowsWithWarnings: 1 });
    expect(v.rows).toHaveLength(10);
    expect(v.rows[0]).toMatchObject({ rowNumber: 15, hasErrors: true });
    expect(
      v.rows
        .slice(1)
        .every((r: { hasCorrections: boolean; hasErrors: boolean }) => r.hasCorrections && !r.hasErrors),
    ).toBe(true);
    expect(v.rows.some((r: { rowNumber: number }) => r.rowNumber === 14)).toBe(false);
  });

  it('reports problems met while reading the file, header problems included', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const text = CSV.replace('Email,Phone,', 'Email,Email,') + '\r\nshort@example.com,1';
    const up = await upload(agent, text);
    expect(up.json().issues.map((i: { code: string }) => i.code)).toEqual(['DUPLICATE_HEADER', 'RAGGED_ROW']);
    const id = up.json().file.id;
    const m = { ...MAPPING, Email_2: 'phone' } as Record<string, string>;
    delete m.Phone;
    expect(
      (await agent.patch(`/api/uploads/${id}/status`, { status: 'mapped', mappings: m, hardcodedValues: {} }))
        .statusCode,
    ).toBe(200);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.fileIssues.map((i: { code: string }) => i.code)).toEqual(['DUPLICATE_HEADER', 'RAGGED_ROW']);
    expect(v.fileIssues[0].message).toMatch(/Column "Email" appears more than once/);
  });

  it('reports a whole-file error when the mapping names columns the file lacks', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const fixed = await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('fixed.csv', 'email,when\na@b.co,2026-11-21\n'),
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({
      headers: ['email', 'when'],
      message: 'File uploaded. Revalidating...',
    });
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.error).toMatch(/^Your file headers don't match your mappings/);
  });

  it('refuses a corrected file over the size limit with 413, keeping the old bytes and no partial file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const big =
      CSV.split('\r\n')[0] +
      '\r\n' +
      'ann@example.com,,Lead,2026-11-21T10:00:00Z,physical_store,1,USD\r\n'.repeat(1200);
    const res = await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('big.csv', big),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File is too large. Max size is 0.1MB.');
    const partial = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where not complete',
    );
    expect(partial.rows[0]!.n).toBe(0);
    expect((await agent.get(`/api/uploads/${id}`)).json()).toMatchObject({
      fileName: 'leads.csv',
      rowCount: 3,
      status: 'mapped',
    });
    expect((await agent.get(`/api/uploads/${id}/validate`)).json()).toMatchObject({
      rowsChecked: 3,
      rowsWithErrors: 1,
    });
  });

  it.each([
    ['unreadable', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['header-only', 'Email,Phone\r\n'],
    ['empty', ''],
  ])('keeps the old bytes when a corrected upload fails (%s)', async (_n, content) => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    const res = await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('fixed.csv', content),
    });
    expect(res.statusCode).toBe(400);
    expect((await agent.get(`/api/uploads/${id}/headers`)).json().headers).toEqual([
      'Email',
      'Phone',
      'Event',
      'When',
      'Source',
      'Value',
      'Currency',
    ]);
    expect((await agent.get(`/api/uploads/${id}/validate`)).json()).toMatchObject({
      rowsChecked: 3,
      rowsWithErrors: 1,
    });
  });

  it('writes every problem row to report.csv with formula cells neutralised', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const evil = CSV + '\r\n=HYPERLINK("http://x"),+123,Lead,2026-11-21T10:00:00Z,physical_store,,';
    const id = await mapped(agent, evil);
    const res = await agent.get(`/api/uploads/${id}/validate/report.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="report.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('"row","field","kind","message","original","corrected","reason"');
    expect(res.body).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(res.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
    expect(lines.some((l) => l.startsWith('"4","user_data","error"'))).toBe(true);
  });

  it('refuses report.csv, validation and corrected files for a submitted file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    await ctx.db.query(`update uploads set status = 'submitted' where id = $1`, [id]);
    for (const res of [
      await agent.get(`/api/uploads/${id}/validate/report.csv`),
      await agent.get(`/api/uploads/${id}/validate`),
      await agent.request({
        method: 'POST',
        url: `/api/uploads/${id}/fixed`,
        ...multipartFile('fixed.csv', CSV),
      }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This file is already submitted. Please upload a new file.');
    }
  });

  it('puts the original value of every problem in report.csv, errors included', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const text = CSV + '\r\nzed@example.com,,Purchase,2030-01-01T00:00:00Z,physical_store,12,dollars';
    const id = await mapped(agent, text);
    const lines = (await agent.get(`/api/uploads/${id}/validate/report.csv`)).body.trim().split('\r\n');
    const at = (row: number, field: string, kind: string) =>
      lines.find((l) => l.startsWith(`"${row}","${field}","${kind}",`));
    // Errors: the raw cell (or the mapped customer columns), nothing corrected.
    expect(at(5, 'event_time', 'error')).toMatch(/,"2030-01-01T00:00:00Z","",""$/);
    expect(at(5, 'currency', 'error')).toMatch(/,"dollars","",""$/);
    expect(at(4, 'user_data', 'error')).toMatch(/,"email=not-an-email; phone=","",""$/);
    // Corrections keep both values.
    expect(at(2, 'phone', 'correction')).toMatch(/,"\(650\)555-1212","16505551212",""$/);
    // "usd" is USD in lower case: read, not a correction (issue 29).
    expect(at(2, 'currency', 'correction')).toBeUndefined();
    // A dropped value has nothing sent in its place, and says why by its code.
    expect(at(4, 'email', 'dropped')).toMatch(/,"not-an-email","","invalid"$/);
  });

  it('only allows validated after a clean run; a corrected file revalidates clean; prepare and preview follow', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent);
    await agent.get(`/api/uploads/${id}/validate`);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(409);
    const clean = CSV.split('\r\n').slice(0, 3).join('\r\n');
    await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('clean.csv', clean),
    });
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 2, rowsWithErrors: 0 });
    expect((await agent.get(`/api/uploads/${id}/prepare`)).statusCode).toBe(409);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).json().status).toBe(
      'validated',
    );
    const p = await agent.get(`/api/uploads/${id}/prepare`);
    expect(p.json()).toEqual({
      totalCount: 2,
      status: 'prepared',
      skippedErrorRows: 0,
      skippedRefundRows: 0,
    });
    const preview = (await agent.get(`/api/uploads/${id}/preview`)).json();
    expect(preview.totalCount).toBe(2);
    expect(preview.previewRows[0]).toMatchObject({
      event_name: 'Purchase',
      action_source: 'physical_store',
      custom_data: { value: 1200, currency: 'USD' },
      user_data: { ph: ['e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176'] },
    });
    const full = await agent.get(`/api/uploads/${id}/preview/full`);
    expect(full.headers['content-disposition']).toBe(`attachment; filename="prepared-${id}.json"`);
    expect(JSON.parse(full.body)).toHaveLength(2);
    expect(JSON.parse(full.body)[0].event_id).toBe(preview.previewRows[0].event_id);
  });
});

describe('repeated rows', () => {
  it('leaves out a row that repeats an earlier event, says so, and counts it out of the total', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const [header, first, second] = CSV.split('\r\n');
    const id = await mapped(agent, [header, first, second, first].join('\r\n'));
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 3, rowsWithErrors: 0 });
    const repeat = v.rows.find((r: { rowNumber: number }) => r.rowNumber === 4);
    expect(repeat.corrections).toContainEqual(
      expect.objectContaining({
        field: 'event_id',
        message:
          'Same event as row 2 (event name and event_id): left out, since Meta would count it only once.',
      }),
    );
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
    expect((await agent.get(`/api/uploads/${id}/prepare`)).json().totalCount).toBe(2);
    const events = JSON.parse((await agent.get(`/api/uploads/${id}/preview/full`)).body) as {
      event_id: string;
    }[];
    expect(events).toHaveLength(2);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(2);
  });
});

describe('column formats', () => {
  it('reads a lone "1.234" the way the rest of its column writes decimals', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const header = CSV.split('\r\n')[0]!;
    const row = (email: string, value: string) =>
      `${email},,Purchase,2026-11-21T10:00:00Z,physical_store,"${value}",EUR`;
    const euro = [
      header,
      row('a@example.com', '1.234'),
      row('b@example.com', '12,50'),
      row('c@example.com', '1.234,56'),
    ].join('\r\n');
    const dot = [header, row('a@example.com', '1.234'), row('b@example.com', '12.50')].join('\r\n');
    const values = async (content: string) => {
      const id = await mapped(agent, content);
      const f = (await filesRepo.findInWorkspace(ctx.db, (await agent.get('/auth/me')).json().user.id, id))!;
      const out: number[] = [];
      await runPipeline(ctx.db, f, { mode: 'events', now: NOW, lane: 'requests' }, (items) => {
        for (const i of items)
          out.push((JSON.parse(i.event.json) as ServerEvent).custom_data!.value as number);
      });
      return { f, out };
    };
    const e = await values(euro);
    expect(e.f.decimalSeparators).toEqual({ Value: ',' });
    expect(e.out).toEqual([1234, 12.5, 1234.56]);
    const d = await values(dot);
    expect(d.f.decimalSeparators).toEqual({ Value: '.' });
    expect(d.out).toEqual([1.234, 12.5]);
  });
});

describe('pipeline workers', () => {
  it('reads at most min(2, cores) files at once for the API, queueing the rest', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => mapped(agent)));
    const pool = pipelinePools.requests;
    const before = pool.stats().started;
    const results = await Promise.all(ids.map((id) => agent.get(`/api/uploads/${id}/validate`)));
    results.forEach((r) => expect(r.json()).toMatchObject({ rowsChecked: 3, rowsWithErrors: 1 }));
    const stats = pool.stats();
    expect(stats.size).toBeLessThanOrEqual(2);
    expect(stats.peakBusy).toBeLessThanOrEqual(stats.size);
    expect(stats.started - before).toBeLessThanOrEqual(stats.size);
    expect(stats).toMatchObject({ busy: 0, queued: 0 });
  });

  it('stops a preview after its events instead of reading the whole file', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const rows = Array.from(
      { length: 400 },
      (_, i) => `u${i}@example.com,,Lead,2026-11-21T10:00:00Z,physical_store,1,USD`,
    );
    const id = await mapped(agent, [CSV.split('\r\n')[0]!, ...rows].join('\r\n'));
    const f = (await filesRepo.findInWorkspace(ctx.db, userId, id))!;
    let seen = 0;
    const s = await runPipeline(
      ctx.db,
      f,
      { mode: 'events', now: NOW, previewLimit: 0, stopAfterEvents: 5, lane: 'requests' },
      (items) => {
        seen += items.length;
      },
    );
    expect(seen).toBe(5);
    expect(s).toMatchObject({ stoppedEarly: true, validEvents: 5, rowsChecked: 5 });
    await agent.get(`/api/uploads/${id}/validate`);
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    const preview = (await agent.get(`/api/uploads/${id}/preview`)).json();
    expect(preview.previewRows).toHaveLength(10);
    expect(preview.totalCount).toBe(400);
  });
});

describe('isolation between users', () => {
  it("answers 404 for another user's file on every endpoint, exactly like a missing one", async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(a.agent);
    const missing = '00000000-0000-4000-8000-000000000000';
    const calls = (target: string) => [
      b.agent.get(`/api/uploads/${target}`),
      b.agent.get(`/api/uploads/${target}/headers`),
      b.agent.patch(`/api/uploads/${target}/status`, { status: 'uploaded', mappings: {} }),
      b.agent.get(`/api/uploads/${target}/validate`),
      b.agent.get(`/api/uploads/${target}/validate/report.csv`),
      b.agent.get(`/api/uploads/${target}/prepare`),
      b.agent.get(`/api/uploads/${target}/preview`),
      b.agent.get(`/api/uploads/${target}/preview/full`),
      b.agent.delete(`/api/uploads/${target}`),
      b.agent.request({
        method: 'POST',
        url: `/api/uploads/${target}/fixed`,
        ...multipartFile('x.csv', CSV),
      }),
    ];
    const theirs = await Promise.all(calls(id));
    const none = await Promise.all(calls(missing));
    theirs.forEach((r, i) => {
      expect(r.statusCode, `call ${i}`).toBe(404);
      expect({ ...r.json(), requestId: 0 }).toEqual({ ...none[i]!.json(), requestId: 0 });
    });
    expect((await b.agent.get('/api/uploads')).json().total).toBe(0);
    expect((await a.agent.get(`/api/uploads/${id}`)).statusCode).toBe(200);
  });
});
