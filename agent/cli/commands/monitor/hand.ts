import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor } from './shared';
import { printable } from '../../crontab/table';

/**
 * `cronbeat monitor hand ID|NAME… --key KEY_ID [--json]`: lets that key's line, and no other,
 * pulse and change each monitor named (several at once after an upgrade, when every monitor a
 * line made before belongs to no key). Stops at the first the API refuses.
 */
export async function handMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, key: { type: 'string' } } });
  if (values.key === undefined || !/^[1-9]\d{0,15}$/.test(values.key)) {
    throw new UsageError('Say which key\'s line may keep the monitor: --key ID (the id `cronbeat token list` or the 409 of its line shows).');
  }
  const api = apiFromEnv(values.url);
  const refs = positionals.length > 0 ? positionals : [undefined];
  const handed = [];
  for (const ref of refs) {
    const monitor = await findMonitor(api, ref);
    const answer = await api.handMonitor(monitor.id, Number(values.key));
    handed.push(answer);
    if (!values.json) console.log(printable(`"${monitor.name}" now belongs to the line of key ${answer.key_id}: its slug is ${answer.slug}.`));
  }
  if (values.json) console.log(JSON.stringify(handed.length === 1 ? handed[0] : handed, null, 2));
  return 0;
}
