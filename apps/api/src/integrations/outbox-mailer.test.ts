import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { outboxMailer } from './mailer.ts';

const silent = { info: () => {} };

it('never shows a reader a mail half written: a file in the outbox is always the whole mail', async () => {
  const root = mkdtempSync(join(tmpdir(), 'bs-outbox-'));
  const outbox = join(root, 'outbox');
  const mailer = outboxMailer(outbox, 'Backsignal <no-reply@backsignal.local>', silent);
  const text = 'x'.repeat(256 * 1024);
  const sends = Array.from({ length: 20 }, (_, i) =>
    mailer.send({ to: `reader-${i}@example.com`, subject: 'Verify', text, html: text }),
  );
  // A reader polling the way the browser journeys read verification links: every file it lists, between
  // every step of the writes.
  let done = false;
  const all = Promise.all(sends).finally(() => (done = true));
  while (!done) {
    let files: string[] = [];
    try {
      files = readdirSync(outbox);
    } catch {
      /* not created yet */
    }
    for (const f of files) {
      expect(JSON.parse(readFileSync(join(outbox, f), 'utf8')).text).toBe(text);
    }
    await new Promise((r) => setImmediate(r));
  }
  await all;
  expect(readdirSync(outbox)).toHaveLength(20);
  rmSync(root, { recursive: true });
});
