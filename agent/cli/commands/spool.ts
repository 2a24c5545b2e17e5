import { parseArgs } from '../parseOptions';
import { describeSignal } from '../../client/pulses/pulses';
import { plural, PulseSender } from '../../client/pulseSender';
import { Spool } from '../../client/spool/spool';
import { adoptSpool } from '../../client/spool/spoolAdopt';
import { spoolFolder, strandedSpoolFolder } from '../../client/spool/spoolFolder';
import { refusalLines } from '../../client/spool/spoolFlush';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';
import { UsageError, type Command } from '../command';
import { printTable } from '../crontab/table';
import { counted, progressLine } from '../progress';
import { baseUrlOption } from './ping';
import { shownUrl } from '../../client/connection/baseUrl';
import { shortTime } from '../shortTime';

const help = `Usage: cronbeat spool <list|flush> [--json] [--url URL] [--data-dir DIR]

Pulses that could not reach the agent wait in the spool (a file in the data folder, or in a
private folder in $TMPDIR when the data folder cannot be used) with the time of their event.
The next \`cronbeat ping\` or \`cronbeat run\` delivers them first, in order; \`spool flush\` does
it now. The agent credits each one to its event's time (up to 24 h back). Unreadable lines are
set aside in spool.rejected.jsonl; a spool past 10,000 pulses or 8 MB drops its oldest outputs
first, then its oldest pulses.

  cronbeat spool list [--json]   shows what waits
  cronbeat spool flush           delivers what waits, in order, each pulse once (on a
                                 terminal, with a progress line on stderr)

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
  subcommands: ['list', 'flush'],
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
    const folder = spoolFolder(values['data-dir']);
    if (folder.dir === null) console.error(`cronbeat: no spool here: ${folder.reason}`);
    else if (folder.fallbackReason) console.error(`cronbeat: the spool is in ${folder.dir}: ${folder.fallbackReason}`);

    if (action === 'list') {
      const spool = folder.dir === null ? null : new Spool(folder.dir);
      // What the temporary folder kept while the data folder was unusable waits here now (as the next ping would move it).
      const stranded = folder.dir === null || folder.fallbackReason ? null : strandedSpoolFolder(folder.dir);
      if (spool && stranded) await adoptSpool(new Spool(stranded), spool).catch(() => 0);
      const entries = (await spool?.pending()) ?? [];
      if (spool?.unreadable) {
        console.error(`cronbeat: skipped ${plural(spool.unreadable, 'unreadable line')} of ${spool.file}; the next delivery sets them aside in ${spool.rejectedFile}`);
      }
      const rows = entries.map((entry) => ({
        // JSON keeps the API's timestamp; the table says it on this machine's clock.
        sent_at: values.json ? toApiTimestamp(entry.pulse.at) : shortTime(entry.pulse.at),
        token: entry.pulse.tokenOrSlug,
        pulse: describeSignal(entry.pulse.signal),
        rid: entry.pulse.rid ?? null,
        body_bytes: Buffer.byteLength(entry.pulse.body ?? ''),
        url: shownUrl(entry.baseUrl),
      }));
      if (values.json) console.log(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) console.log('The spool is empty: no pulse is waiting to be delivered.');
      else printTable(rows, ['sent_at', 'token', 'pulse', 'rid', 'body_bytes', 'url']);
      return 0;
    }

    const sender = new PulseSender(baseUrlOption(values.url), folder);
    const waiting = folder.dir === null ? 0 : (await new Spool(folder.dir).pending()).length;
    const progress = progressLine('Delivering the spool', counted('pulses'));
    let tried = 0;
    const result = await sender
      .flush(30_000, values.url !== undefined ? 'redirect' : 'each', () => progress.update(++tried, Math.max(tried, waiting)))
      .finally(progress.end);
    for (const warning of sender.warnings()) console.error(`cronbeat: ${warning}`);
    if (result.busy) throw new UsageError('Another cronbeat process is delivering the spool; try again in a minute.', 1);
    for (const line of refusalLines(result.rejected)) console.error(`cronbeat: ${line}`);
    const summary = `Delivered ${plural(result.delivered.length, 'pulse')}; ${result.waiting.length} still waiting.`;
    if (result.waiting.length === 0) {
      console.log(summary);
      return 0;
    }
    // Each agent's own answer: a redirect or a 500 is fixed elsewhere than an agent that is not running.
    const agents = [...new Set(result.waiting.map((entry) => (values.url ? sender.baseUrl : entry.baseUrl)))];
    const why = agents.map((url) => `The agent at ${shownUrl(url)} did not take them (${sender.whyUnreachable(url)}).`);
    console.error(`cronbeat: ${summary} ${why.join(' ')} Start the desktop app or \`cronbeat serve\` if it is not running, and flush again.`);
    return 1;
  },
};
