import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** Issue 21 finding 2: hostile multipart bodies are the client's fault (400/415), never a 500. */
let ctx: TestContext;
let owner: Awaited<ReturnType<typeof loggedInAgent>>;
let fileId = '';
const CSV = 'Email,Event,When\r\nann@example.com,Lead,2026-11-21T10:00:00Z\r\n';

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await loggedInAgent(ctx.app, ctx.db);
  fileId = (
    await owner.agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('a.csv', CSV) })
  ).json().file.id;
});
afterAll(() => ctx.close());

const whole = () => multipartFile('b.csv', CSV);
const BODIES: Record<string, () => { payload: Buffer; headers: Record<string, string> }> = {
  'a garbage body': () => ({
    payload: Buffer.from('this is not multipart at all \x00\x01\x02'),
    headers: { 'content-type': 'multipart/form-data; boundary=----xyz' },
  }),
  'a truncated part': () => {
    const m = whole();
    return { payload: m.payload.subarray(0, m.payload.length - 30), headers: m.headers };
  },
  'a missing boundary': () => ({
    payload: whole().payload,
    headers: { 'content-type': 'multipart/form-data' },
  }),
};

describe.each(['/api/upload', '/fixed'])('broken multipart bodies to %s', (target) => {
  const url = () => (target === '/fixed' ? `/api/uploads/${fileId}/fixed` : target);
  it.each(Object.keys(BODIES))('%s answers 400 with a plain message', async (kind) => {
    const res = await owner.agent.request({ method: 'POST', url: url(), ...BODIES[kind]!() });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^The upload could not be read/);
  });

  it('a gzip-encoded body answers 415', async () => {
    const m = whole();
    const res = await owner.agent.request({
      method: 'POST',
      url: url(),
      payload: gzipSync(m.payload),
      headers: { ...m.headers, 'content-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(
      'Compressed uploads are not supported. Please upload the CSV file itself.',
    );
  });
});
