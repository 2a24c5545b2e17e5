import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';

/**
 * node:util parseArgs, whose mistakes carry the options that were asked for (`known`): invoke
 * (command.ts) answers a misspelt one with the closest of them, for every command at once.
 */
export function parseArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof nodeParseArgs<T>> {
  try {
    return nodeParseArgs(config);
  } catch (error) {
    if (error instanceof Error && config.options) Object.assign(error, { known: Object.keys(config.options) });
    throw error;
  }
}
