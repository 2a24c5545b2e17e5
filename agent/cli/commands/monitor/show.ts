import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor } from './shared';

/** `cronbeat monitor show ID|NAME [--json]` */
export async function showMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMMON_OPTIONS });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  printMonitor(await findMonitor(apiFromEnv(values.url), positionals[0]), values.json);
  return 0;
}
