import { parseArgs } from 'node:util';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor } from './shared';

/** `cronbeat monitor hand ID|NAME --key KEY_ID [--json]`: lets that key's line, and no other, pulse and change the monitor. */
export async function handMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, key: { type: 'string' } } });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  if (values.key === undefined || !/^[1-9]\d{0,15}$/.test(values.key)) {
    throw new UsageError('Say which key\'s line may keep the monitor: --key ID (the id `cronbeat token list` or the 409 of its line shows).');
  }
  const api = apiFromEnv(values.url);
  const monitor = await findMonitor(api, positionals[0]);
  const handed = await api.handMonitor(monitor.id, Number(values.key));
  if (values.json) console.log(JSON.stringify(handed, null, 2));
  else console.log(`"${monitor.name}" now belongs to the line of key ${handed.key_id}: its slug is ${handed.slug}.`);
  return 0;
}
