import { hostname } from 'node:os';
import { shellQuote } from '../../domain/text/shellQuote';
import { ApiError } from '../../client/connection/api';
import { cronZone } from './cronZone';
import { slugOf } from '../../domain/monitors/ownLine';
import { othersMustRunOf, refreshShim, type DiscoverOptions } from './discover';
import { modeOf, readableByAll, writeWithBackup } from './write';
import { jobsToMonitor, readCrontab } from './jobs';
import { monitorNameFor } from './mask';
import { jobsOf } from './parse';
import { rewriteJobLine, shellProblem, tooLongToWrap } from './rewrite';
import { describeError } from '../../domain/text/errorText';
import { tokenWordProblem } from '../../domain/text/tokenWord';

export const KEY_VARIABLE = 'CRONBEAT_API_TOKEN';

/**
 * `crontab discover --by-name`: rewrites each unmonitored job's line to run
 * `cronbeat run --name=SLUG`, which creates and keeps its monitor itself from the line's own
 * schedule and CRON_TZ (read at each run), so editing the schedule in the crontab is all it
 * takes to change the monitor. No monitor is created now and no token is copied: a ping key
 * made here (or the ping key discover was given) goes once into the crontab as
 * CRONBEAT_API_TOKEN=…, unless the crontab sets it already. Returns the exit status.
 */
export async function discoverByName(options: DiscoverOptions): Promise<number> {
  const { source } = options;
  const crontab = readCrontab(source);
  if (!crontab) {
    console.log(`No crontab at ${source.label}: nothing to discover.`);
    return 0;
  }
  const plans: Array<{ line: number; slug: string; text: string }> = [];
  for (const job of jobsToMonitor(crontab.lines)) {
    // The name a long command is cut to ends in "…", which slugOf refuses as a look-alike of "...".
    const slug = slugOf(monitorNameFor(job.shellCommand).replace(/…$/, ''));
    const shell = shellProblem(job.shell);
    const zone = cronZone(job.timezone ?? options.machineZone);
    const long = slug ? tooLongToWrap(job, { shim: options.shim.shim, url: options.url }, `--name=${slug}`) : null;
    if (zone.zone === undefined) console.error(`cronbeat: line ${job.line} skipped: ${zone.error}`);
    else if (shell) console.log(`Line ${job.line} left alone: ${shell}.`);
    else if (!slug) console.log(`Line ${job.line} left alone: its command gives no name with a letter or digit.`);
    else if (long) console.log(`Line ${job.line} left alone: ${long}.`);
    else plans.push({ line: job.line, slug, text: rewriteJobLine(job, `--name=${slug}`, { shim: options.shim.shim, url: options.url }) });
  }
  for (const job of jobsOf(crontab.lines).filter((j) => j.unmonitorable)) console.log(`Line ${job.line} left alone: ${job.unmonitorable}.`);
  if (plans.length === 0) {
    console.log('Nothing to do: no job without a monitor.');
    return 0;
  }
  const hasKey = crontab.lines.some((line) => line.kind === 'env' && line.name === KEY_VARIABLE && line.value !== '');
  if (options.dryRun) {
    console.log(`Would rewrite ${plans.length} line${plans.length === 1 ? '' : 's'} of ${source.label}; each creates its monitor at its first run:`);
    if (!hasKey) console.log(`  line 1: ${KEY_VARIABLE}=<a new ping key>`);
    for (const plan of plans) console.log(`  line ${plan.line}: ${plan.text}`);
    return 0;
  }

  let key: string | null = null;
  if (!hasKey) {
    const open = source.path ? readableByAll(source.path) : null;
    if (open) {
      // A ping key pulses every monitor its lines made: any user who reads it could report a failing job as fine.
      console.error(`cronbeat: ${open} is readable by every user of this machine (mode ${modeOf(open)}), and the ping key would be written into it: nothing was changed. Make it private first (chmod 600 ${shellQuote(source.path!)}; cron reads it as root), or set ${KEY_VARIABLE}= in it yourself.`);
      return 1;
    }
    try {
      key = await pingKeyFor(options);
    } catch (error) {
      console.error(`cronbeat: no ping key for the crontab: ${describeError(error)}`);
      return 1;
    }
    // It goes into the crontab as CRONBEAT_API_TOKEN=KEY: it must be one, whoever answered.
    const problem = tokenWordProblem(key, 'ping key');
    if (problem) {
      console.error(`cronbeat: no ping key for the crontab: ${problem}; nothing was changed.`);
      return 1;
    }
  }
  if (refreshShim(options, othersMustRunOf(jobsOf(crontab.lines), source)) !== 0) return 1;
  const lines = crontab.text.split('\n');
  for (const plan of plans) lines[plan.line - 1] = plan.text;
  // A key in the crontab's environment: cron gives it to the lines below, and `crontab -l` shows it only to its owner.
  if (key) lines.unshift(`# Cronbeat: the ping key the lines below send their pulses with (cronbeat crontab discover --by-name).`, `${KEY_VARIABLE}=${key}`);
  const backup = writeWithBackup(source, crontab, lines.join('\n'), options);
  for (const plan of plans) console.log(`Line ${plan.line}: monitored by its name "${plan.slug}"; its monitor is made at its first run.`);
  console.log(
    `Rewrote ${plans.length} line${plans.length === 1 ? '' : 's'} of ${source.label}${key ? ` and set ${KEY_VARIABLE} to a new ping key` : ''} ` +
      `(the original is kept in ${backup}). Edit a line's schedule in the crontab and its monitor follows at the next run.`,
  );
  return 0;
}

/** A new ping key named for this machine; when discover was given a ping key itself (403 on POST /api/keys), that one. */
async function pingKeyFor(options: DiscoverOptions): Promise<string> {
  try {
    return (await options.api!.createKey(`crontab ${hostname()}`, 'ping')).key;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && options.apiToken) return options.apiToken;
    throw error;
  }
}
