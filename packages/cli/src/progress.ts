/** How the CLI reports: a redrawn bar on a terminal, plain lines when piped, nothing but JSON with --json. */
export type OutputMode = 'tty' | 'plain' | 'json';

export const outputMode = (json: boolean, isTty: boolean): OutputMode =>
  json ? 'json' : isTty ? 'tty' : 'plain';

export function bar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}]`;
}

export const percent = (done: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const count = (n: number) => n.toLocaleString('en-US');

/** "Uploading leads.csv [#####-----] 52% (13.1 of 25.0 MB)". */
export function progressLine(label: string, done: number, total: number, unit: 'bytes' | 'rows' | 'events') {
  const amounts =
    unit === 'bytes'
      ? `${megabytes(done)} of ${megabytes(total)}`
      : `${count(done)} of ${count(total)} ${unit}`;
  return `${label} ${bar(done / (total || 1))} ${percent(done, total)}% (${amounts})`;
}

export interface Reporter {
  /** A step begins or ends: one line. */
  line(text: string): void;
  /** How far a step has come. */
  progress(label: string, done: number, total: number, unit: 'bytes' | 'rows' | 'events'): void;
}

/**
 * On a terminal the bar is redrawn in place on stderr; piped, a line is written at each tenth (logs stay short);
 * with --json stderr stays quiet and only the final JSON is written to stdout.
 */
export function reporter(mode: OutputMode, out: NodeJS.WritableStream = process.stderr): Reporter {
  let drawn = false;
  let lastTenth = new Map<string, number>();
  const clear = () => {
    if (drawn) out.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    line(text) {
      if (mode === 'json') return;
      clear();
      lastTenth = new Map();
      out.write(text + '\n');
    },
    progress(label, done, total, unit) {
      if (mode === 'json') return;
      const text = progressLine(label, done, total, unit);
      if (mode === 'tty') {
        out.write(`\r\x1b[2K${text}`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(percent(done, total) / 10);
      if (tenth === lastTenth.get(label)) return;
      lastTenth.set(label, tenth);
      out.write(text + '\n');
    },
  };
}
