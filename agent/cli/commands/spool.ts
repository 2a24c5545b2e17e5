import { parseArgs } from 'node:util';
import { describeSignal } from '../../client/pulses';
import { plural, pulseSenderFor } from '../../client/pulseSender';
import { Spool } from '../../client/spool';
import { prepareDataDir } from '../../db/dataDir';
import { toApiTimestamp } from '../../domain/timestamps';
import { UsageError, type Command } from '../command';
import { printTable } from '../crontab/table';
import { baseUrlOption } from './ping';

const help = `Usage: cronbeat spool <list|flush> [--json] [--url URL] [--data-dir DIR]

Pulses that could not reach the agent wait in the spool (a file in the data folder) with the
time they were sent. The next \`cronbeat ping\` or \`cronbeat run\` delivers them first, in order;
\`spool flush\` does it now. The agent credits each one to its original time (up to 24 h back).

  cronbeat spool list [--json]   shows what waits
  cronbeat spool flush           delivers what waits, in order, each pulse once

Options:
  --json           list as JSON
  --url URL        flush to this agent instead of the one each pulse was meant for
  --data-dir DIR   where the spool lives (default: $CRONBEAT_DATA_DIR, else the per-user folder)

Exit status: 0 done (flush: nothing left waiting), 1 flush left pulses waiting (agent
unreachable), 2 wrong usage.

Example:
  cronbeat spool list && cronbeat spool flush`;

export const spoolCommand: Command = {
  name: 'spool',
  summary: 'List or deliver pulses saved while the agent was unreachable',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, url: { type: 'string' }, 'data-dir': { type: 'string' } },
    });
    const [action, extra] = positionals;
    if (action !== 'list' && action !== 'flush') throw new UsageError('Say what to do: `cronbeat spool list` or `cronbeat spool flush`.');
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    const dataDir = prepareDataDir(values['data-dir']);

    if (action === 'list') {
      const rows = new Spool(dataDir).pending().map((entry) => ({
        sent_at: toApiTimestamp(entry.sentAt),
        token: entry.pulse.token,
        pulse: describeSignal(entry.pulse.signal),
        rid: entry.pulse.rid ?? null,
        body_bytes: Buffer.byteLength(entry.pulse.body ?? ''),
        url: entry.baseUrl,
      }));
      if (values.json) console.log(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) console.log('The spool is empty: every pulse was delivered.');
      else printTable(rows, ['sent_at', 'token', 'pulse', 'rid', 'body_bytes', 'url']);
      return 0;
    }

    const sender = pulseSenderFor(baseUrlOption(values.url), dataDir);
    const result = await sender.flush(30_000, values.url !== undefined ? 'redirect' : 'each');
    if (result.busy) throw new UsageError('Another cronbeat process is delivering the spool; try again in a minute.', 1);
    for (const entry of result.rejected) console.error(`cronbeat: dropped a pulse for ${entry.pulse.token}: the agent refused it (unknown or deleted monitor)`);
    const summary = `Delivered ${plural(result.delivered.length, 'pulse')}; ${result.waiting.length} still waiting.`;
    if (result.waiting.length === 0) {
      console.log(summary);
      return 0;
    }
    const urls = [...new Set(result.waiting.map((entry) => (values.url ? sender.baseUrl : entry.baseUrl)))].join(', ');
    console.error(`cronbeat: ${summary} The agent at ${urls} cannot be reached; start the desktop app or \`cronbeat serve\` and flush again.`);
    return 1;
  },
};
