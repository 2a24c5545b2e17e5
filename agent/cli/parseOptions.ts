import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

/**
 * node:util parseArgs, whose mistakes carry the options that were asked for (`known`): invoke
 * (command.ts) answers a misspelt one with the closest of them, for every command at once.
 */
export function parseArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof nodeParseArgs<T>> {
  let parsed: ReturnType<typeof nodeParseArgs<T>>;
  try {
    parsed = nodeParseArgs(config);
  } catch (error) {
    if (error instanceof Error && config.options) Object.assign(error, { known: Object.keys(config.options) });
    throw error;
  }
  const values = parsed.values as Record<string, unknown>;
  const empty = NOT_EMPTY.find((name) => values[name] === '');
  if (empty) throw new UsageError(emptyOption(`--${empty}`));
  return parsed;
}

/**
 * Options whose empty value (`--url "$AGENT"` with the variable unset) would read as the option
 * left out: the default agent, data folder or key, where `monitor delete NAME --yes` or `token
 * revoke 3` acts on another one of that name. `--tags ""`, which takes the tags off, is not one.
 */
export const NOT_EMPTY = ['url', 'data-dir', 'token', 'shim-dir', 'unit-dir', 'root'];

/** What is said of an empty `option`. */
export const emptyOption = (option: string) => `${option} is empty (an unset variable?): give it a value, or leave it out for the default.`;
