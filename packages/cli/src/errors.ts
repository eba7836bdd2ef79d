/**
 * Exit codes (documented in `--help` and the README): 0 every event was sent; 2 sent, but some events failed or
 * rows were left out (rows with errors skipped, refund rows skipped); 1 refused or an error (nothing sent, a stopped
 * send, a bad argument, the API or the network failing).
 */
export const EXIT = { sent: 0, partly: 2, failed: 1 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure to tell the user in plain words: the API's own message and code when it answered. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code = 'ERROR',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
