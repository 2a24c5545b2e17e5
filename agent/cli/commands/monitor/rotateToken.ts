import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { printable } from '../../crontab/table';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor } from './shared';

/**
 * `cronbeat monitor rotate-token ID|NAME [--json]`: a new pulse token for a monitor whose token
 * leaked; the agent refuses the old one from then on.
 */
export async function rotateMonitorToken(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMMON_OPTIONS });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const api = apiFromEnv(values.url);
  const monitor = await api.rotateMonitorToken((await findMonitor(api, positionals[0])).id);
  if (values.json) {
    printMonitor(monitor, true);
    return 0;
  }
  console.log(printable(`New pulse token for "${monitor.name}" (id ${monitor.id}): ${monitor.token}`));
  console.log(printable(`Pulse URL: ${monitor.pulse_url}`));
  console.log('The old token is refused from now on: put the new one in the crontab lines that ping this monitor by token.');
  if (monitor.slug) console.log(printable(`Lines that run \`cronbeat run --name ${monitor.slug}\` learn the new token by themselves at their next run.`));
  return 0;
}
