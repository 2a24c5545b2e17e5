/** One `cronbeat` sub-command. Each lives in agent/cli/commands/<name>.ts and is listed in main.ts. */
export interface Command {
  name: string;
  /** One line for `cronbeat --help`. */
  summary: string;
  /** Full text for `cronbeat <name> --help`: usage, every option, and an example. */
  help: string;
  /** Runs with the arguments after the command name; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** A mistake the user can fix: printed as one line on stderr, never with a stack trace. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}
