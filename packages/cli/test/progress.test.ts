import { describe, expect, it } from 'vitest';
import { bar, outputMode, progressLine, reporter } from '../src/progress.ts';

const sink = () => {
  const chunks: string[] = [];
  return { out: { write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream, chunks };
};

describe('progress', () => {
  it('draws a bar and a line with amounts', () => {
    expect(bar(0, 10)).toBe('[----------]');
    expect(bar(0.5, 10)).toBe('[#####-----]');
    expect(bar(2, 10)).toBe('[##########]');
    expect(progressLine('Uploading', 5 * 1024 * 1024, 10 * 1024 * 1024, 'bytes')).toBe(
      'Uploading [############------------] 50% (5.0 MB of 10.0 MB)',
    );
    expect(progressLine('Sending', 1500, 3000, 'events')).toBe(
      'Sending [############------------] 50% (1,500 of 3,000 events)',
    );
    expect(progressLine('Sending', 0, 0, 'events')).toContain('0%');
  });

  it('chooses JSON over a terminal, a terminal over plain lines', () => {
    expect(outputMode(true, true)).toBe('json');
    expect(outputMode(false, true)).toBe('tty');
    expect(outputMode(false, false)).toBe('plain');
  });

  it('redraws in place on a terminal', () => {
    const { out, chunks } = sink();
    const r = reporter('tty', out);
    r.progress('Uploading', 1, 10, 'rows');
    r.progress('Uploading', 2, 10, 'rows');
    r.line('done');
    expect(chunks[0]!.startsWith('\r\u001b[2KUploading')).toBe(true);
    expect(chunks.at(-1)).toBe('done\n');
    expect(chunks.join('')).not.toMatch(/rows\)\n/);
  });

  it('writes a plain line at each tenth when piped, and nothing with --json', () => {
    const { out, chunks } = sink();
    const r = reporter('plain', out);
    for (let i = 0; i <= 100; i++) r.progress('Checking rows', i, 100, 'rows');
    expect(chunks).toHaveLength(11);
    expect(chunks.every((c) => c.endsWith('\n') && !c.includes('\r'))).toBe(true);
    const quiet = sink();
    const j = reporter('json', quiet.out);
    j.progress('Sending', 1, 2, 'events');
    j.line('x');
    expect(quiet.chunks).toEqual([]);
  });
});
