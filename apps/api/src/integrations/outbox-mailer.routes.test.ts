import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { Agent } from '../../test/agent.ts';
import { loggerOptions } from '../lib/logger-options.ts';
import { outboxMailer } from './mailer.ts';

// The server's wiring without SMTP_URL: the outbox mailer and the app log through pino at info level.
const lines: string[] = [];
const stream = { write: (line: string) => void lines.push(line) };
// A folder of its own inside the temp folder: mails are written beside it (outbox.partial) and renamed in.
const outbox = join(mkdtempSync(join(tmpdir(), 'bs-outbox-')), 'outbox');
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    deps: {
      mailer: outboxMailer(
        outbox,
        'Backsignal <no-reply@backsignal.local>',
        pino(loggerOptions('info'), stream),
      ),
      logger: { ...loggerOptions('info'), stream },
    },
  });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dirname(outbox), { recursive: true, force: true });
});

const mailsTo = (to: string) =>
  readdirSync(outbox)
    .sort()
    .map((f) => ({
      file: join(outbox, f),
      ...(JSON.parse(readFileSync(join(outbox, f), 'utf8')) as { to: string; text: string }),
    }))
    .filter((m) => m.to === to);
const tokenIn = (text: string, path: string) => new RegExp(`${path}\\?token=([\\w-]+)`).exec(text)![1]!;

it('writes verification and reset links to the outbox files and never to the log', async () => {
  const address = `outbox-${Date.now()}@example.com`;
  const agent = new Agent(ctx.app);
  expect(
    (await agent.post('/auth/signup', { email: address, firstName: 'Ada', password: 'Sturdy-Lantern-42!' }))
      .statusCode,
  ).toBe(202);
  await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(1));
  const verify = tokenIn(mailsTo(address)[0]!.text, '/verify');
  expect((await agent.get(`/auth/verify?token=${verify}`)).statusCode).toBe(200);
  expect((await new Agent(ctx.app).post('/auth/forgot-password', { email: address })).statusCode).toBe(200);
  await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(2));
  const reset = tokenIn(mailsTo(address)[1]!.text, '/reset-password');
  expect(
    (await new Agent(ctx.app).post('/auth/reset-password', { token: reset, password: 'Brand-New-Secret-7?' }))
      .statusCode,
  ).toBe(200);

  const log = lines.join('');
  expect(log).toContain('/auth/verify?token=[redacted]');
  expect(log).not.toContain(verify);
  expect(log).not.toContain(reset);
  // Each mail is logged as written, with its recipient and file only.
  const written = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'mail written to outbox');
  expect(written.map((l) => l.file)).toEqual(mailsTo(address).map((m) => m.file));
  for (const entry of written) {
    expect(entry.to).toBe(address);
    expect(Object.keys(entry)).not.toContain('links');
    expect(Object.keys(entry)).not.toContain('text');
  }
});
