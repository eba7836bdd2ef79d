import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { apiClient, type Api } from './client.ts';
import { configDir, loadCredentials, normaliseApiUrl, saveCredentials } from './config.ts';
import { CliError, EXIT, type ExitCode } from './errors.ts';
import { exitCodeOf, outcomeLines, outcomeOf } from './outcome.ts';
import { count, outputMode, reporter } from './progress.ts';
import { findByName, followSend, send } from './send.ts';
import type { DeliverySummary, Named, UploadFile } from './api-types.ts';

const EXIT_CODES = `
Exit codes:
  0  every event was sent (or, without --wait, the send started)
  2  sent, but some events failed or rows were left out (--skip-errors, --refunds skip)
  1  refused or an error: nothing sent, a send Meta stopped, a wrong name, the API or network failing

Environment:
  BACKSIGNAL_API_URL, BACKSIGNAL_API_KEY  used instead of what \`backsignal login\` saved (CI)
  BACKSIGNAL_CONFIG_DIR                   where the login and unfinished uploads are kept`;

interface JsonOption {
  json?: boolean;
}

/** Runs a command: its exit code, or 1 with the error in plain words (as JSON with --json). */
function action<A extends unknown[]>(run: (...args: A) => Promise<ExitCode>) {
  return async (...args: A) => {
    const opts = (args.find((a) => a && typeof a === 'object' && !(a instanceof Command)) ??
      {}) as JsonOption;
    try {
      process.exitCode = await run(...args);
    } catch (err) {
      const e = err instanceof CliError ? err : new CliError((err as Error).message);
      if (opts.json)
        process.stdout.write(JSON.stringify({ error: { code: e.code, message: e.message } }) + '\n');
      else process.stderr.write(`\nError: ${e.message}\n`);
      process.exitCode = EXIT.failed;
    }
  };
}

const api = async (): Promise<Api> => apiClient(await loadCredentials(configDir()));
const report = (opts: JsonOption) => reporter(outputMode(opts.json === true, process.stderr.isTTY === true));
const print = (opts: JsonOption, value: unknown, lines: string[]) =>
  process.stdout.write(opts.json ? JSON.stringify(value, null, 2) + '\n' : lines.join('\n') + '\n');

/** A secret from the terminal without echoing it, or the first line of a pipe. */
async function readKey(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  if (process.stdin.isTTY) {
    process.stderr.write('API key (Settings → API keys; input hidden): ');
    // Nothing typed is echoed back.
    (rl as unknown as { _writeToOutput: () => void })._writeToOutput = () => {};
  }
  const line = await new Promise<string>((resolve) =>
    rl.once('line', resolve).once('close', () => resolve('')),
  );
  rl.close();
  if (process.stdin.isTTY) process.stderr.write('\n');
  return line.trim();
}

export function program(): Command {
  const cli = new Command('backsignal')
    .description('Send offline conversions from a CSV to the Meta Conversions API through Backsignal.')
    .version('0.1.0')
    .showHelpAfterError()
    .addHelpText('after', EXIT_CODES);

  cli
    .command('login')
    .description('save an API key and the app address in your config folder (file readable only by you)')
    .option('--api-url <url>', 'the Backsignal app address, e.g. https://app.backsignal.io')
    .option('--key <key>', 'the API key (else BACKSIGNAL_API_KEY, else asked, or read from standard input)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', EXIT_CODES)
    .action(
      action(async (opts: { apiUrl?: string; key?: string } & JsonOption) => {
        const apiUrl = normaliseApiUrl(opts.apiUrl ?? process.env.BACKSIGNAL_API_URL ?? '');
        const apiKey = opts.key ?? process.env.BACKSIGNAL_API_KEY ?? (await readKey());
        if (!apiKey) throw new CliError('No API key given.', 'BAD_ARGUMENT');
        const who = await apiClient({ apiUrl, apiKey }).get<{
          workspace: { name: string; slug: string };
          key: { name: string; scope: string };
        }>('/api/v1/workspace');
        const path = await saveCredentials(configDir(), { apiUrl, apiKey });
        print(opts, { workspace: who.workspace, key: who.key, saved: path }, [
          `Logged in to workspace "${who.workspace.name}" with key "${who.key.name}" (${who.key.scope} scope).`,
          `Saved to ${path}.`,
        ]);
        return EXIT.sent;
      }),
    );

  cli
    .command('send')
    .description('upload a CSV, map it with a saved template, validate, prepare and send it to a pixel')
    .argument('<file>', 'the CSV file')
    .requiredOption('--template <name>', 'the saved mapping template to map the columns with')
    .requiredOption('--pixel <name>', 'the pixel account (its name or pixel id)')
    .option('--test-code <code>', "send as test events with Events Manager's test code")
    .option('--skip-errors', 'leave rows with errors out and send the others (else they stop the send)')
    .addOption(
      new Option('--refunds <choice>', 'refund rows (negative Purchase values)').choices(['skip', 'send']),
    )
    .option('--wait', 'follow the send to its end and print the summary')
    .option('--json', 'print the outcome as JSON on standard output, no progress')
    .addHelpText('after', EXIT_CODES)
    .action(
      action(
        async (
          file: string,
          opts: {
            template: string;
            pixel: string;
            testCode?: string;
            skipErrors?: boolean;
            refunds?: 'skip' | 'send';
            wait?: boolean;
          } & JsonOption,
        ) => {
          const outcome = await send(await api(), file, opts, configDir(), report(opts));
          const lines = outcomeLines(outcome);
          if (!opts.wait) lines.push(`Follow it with: backsignal status ${outcome.uploadId}`);
          print(opts, outcome, lines);
          return exitCodeOf(outcome);
        },
      ),
    );

  cli
    .command('status')
    .description("an upload's latest send: sent, failed, left out, why")
    .argument('<upload>', 'the upload id (send prints it)')
    .option('--wait', 'follow a running send to its end')
    .option('--json', 'print the outcome as JSON')
    .addHelpText('after', EXIT_CODES)
    .action(
      action(async (id: string, opts: { wait?: boolean } & JsonOption) => {
        const client = await api();
        const file = await client.get<UploadFile>(`/api/v1/uploads/${encodeURIComponent(id)}`);
        let summary: DeliverySummary | null = null;
        try {
          summary = opts.wait
            ? await followSend(client, file.id, report(opts))
            : await client.get<DeliverySummary>(`/api/v1/uploads/${file.id}/summary`);
        } catch (err) {
          // Never sent: the summary is a 404.
          if (!(err instanceof CliError && err.status === 404)) throw err;
        }
        const outcome = outcomeOf(file, summary, { errorRows: 0, refundRows: 0 });
        print(opts, outcome, outcomeLines(outcome));
        return exitCodeOf(outcome);
      }),
    );

  cli
    .command('failed-rows')
    .description("the rows of an upload's send that Meta refused, as CSV with the reason")
    .argument('<upload>', 'the upload id')
    .option('-o, --output <file>', 'write to this file (else standard output)')
    .addHelpText('after', EXIT_CODES)
    .action(
      action(async (id: string, opts: { output?: string }) => {
        const csv = await (await api()).text(`/api/v1/uploads/${encodeURIComponent(id)}/failed-rows`);
        if (!opts.output) {
          process.stdout.write(csv);
          return EXIT.sent;
        }
        await writeFile(opts.output, csv);
        const rows = Math.max(0, csv.split('\n').filter((l) => l.trim()).length - 1);
        process.stderr.write(`${count(rows)} failed rows written to ${opts.output}.\n`);
        return EXIT.sent;
      }),
    );

  const sources = cli.command('sources').description('scheduled imports');
  sources
    .command('run')
    .description('run a source now (by its name), as "Run now" in the app')
    .argument('<name>', "the source's name")
    .option('--json', 'print the result as JSON')
    .addHelpText('after', EXIT_CODES)
    .action(
      action(async (name: string, opts: JsonOption) => {
        const client = await api();
        const source = findByName(await client.all<Named>('/api/v1/sources'), name, 'source');
        const r = await client.post<{ message: string }>(`/api/v1/sources/${source.id}/run`);
        print(opts, { source: { id: source.id, name: source.name }, message: r.message }, [
          `${source.name}: ${r.message}`,
        ]);
        return EXIT.sent;
      }),
    );
  return cli;
}
