import { describe, expect, it } from 'vitest';
import { program } from '../src/program.ts';

const help = (args: string[]) => {
  let out = '';
  const p = program();
  p.exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  for (const c of p.commands) c.exitOverride().configureOutput({ writeOut: (s) => (out += s) });
  try {
    p.parse(['node', 'backsignal', ...args]);
  } catch {
    // --help ends with commander's exit, overridden.
  }
  return out;
};

describe('--help', () => {
  it('lists every command and documents the exit codes', () => {
    const text = help(['--help']);
    for (const c of ['login', 'send', 'status', 'failed-rows', 'sources']) expect(text).toContain(c);
    expect(text).toMatch(/0 +every event was sent/);
    expect(text).toMatch(/2 +sent, but some events failed or rows were left out/);
    expect(text).toMatch(/1 +refused or an error/);
  });

  it("documents send's options and its exit codes", () => {
    const text = help(['send', '--help']);
    for (const o of [
      '--template',
      '--pixel',
      '--test-code',
      '--skip-errors',
      '--wait',
      '--json',
      '--refunds',
    ])
      expect(text).toContain(o);
    expect(text).toContain('Exit codes:');
  });
});
