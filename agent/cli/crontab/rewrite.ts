import { shellQuote } from '../../domain/shellQuote';
import { splitRawAtPercent, type CronJob } from './parse';

/** How the rewritten line calls cronbeat, e.g. "/usr/bin/node /usr/lib/node_modules/cronbeat/dist/cronbeat.cjs". */
export interface Invocation {
  cronbeat: string;
  /** Added as --url when the agent is not the default one, since cron does not see our environment. */
  url: string | null;
}

const MONITORED = /(?:^|[\s/])cronbeat(?:\.cjs)?['"]?\s+run\s+(?:--[a-z-]+(?:=\S+|\s+\S+)\s+)*([^\s-]\S*)\s+--(?:\s|$)/;

/** The monitor token of a command that already runs through `cronbeat run`, else null. */
export function monitoredToken(command: string): string | null {
  return MONITORED.exec(command)?.[1] ?? null;
}

/** Characters that make a command more than a plain program with plain arguments. */
const PLAIN = /^[A-Za-z0-9_./:,+@-]+(?:\s+[A-Za-z0-9_./:,+@=-]+)*$/;

/**
 * The job's line, running its command through `cronbeat run TOKEN -- …`. A plain command
 * (program and simple arguments) is passed as it is; anything the shell interprets (pipes,
 * redirections, variables, &&) runs through the crontab's SHELL (default /bin/sh) with -c.
 * Cron's % rule still applies: text from the first unescaped % stays outside, as the stdin.
 */
export function rewriteJobLine(job: CronJob, token: string, invocation: Invocation): string {
  const { head, tail } = splitRawAtPercent(job.command);
  const command = head.trim();
  const wrapped = PLAIN.test(command) ? command : `${shellQuote(job.shell ?? '/bin/sh')} -c ${shellQuote(command)}`;
  const url = invocation.url ? ` --url ${shellQuote(invocation.url)}` : '';
  return `${job.raw.slice(0, job.commandStart)}${invocation.cronbeat} run${url} ${token} -- ${wrapped}${tail}`;
}
