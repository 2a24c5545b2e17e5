import { readRunWords } from '../run/runWords';
import { shellQuote } from '../../domain/text/shellQuote';
import { splitRawAtPercent, type CronJob } from './parse';

/** How the rewritten line calls cronbeat: the stable entry point, and the agent when not the default. */
export interface Invocation {
  /** The fail-open shim, e.g. /usr/local/lib/cronbeat/cronbeat (agent/cli/crontab/shim.ts). */
  shim: string;
  /** Added as --url when the agent is not the default one, since cron does not see our environment. */
  url: string | null;
}

const MONITORED = /(?:^|[\s/])cronbeat(?:\.cjs)?['"]?\s+run\s+(?:--[a-z-]+(?:=\S+|\s+\S+)\s+)*([^\s-]\S*|--name=[a-z0-9_-]+)\s+--(?:\s|$)/;

/**
 * The monitor token of a command that already runs through `cronbeat run`, else null. A line
 * that names its monitor by slug instead (`cronbeat run --name=SLUG --`, as `discover --by-name`
 * writes it) gives "--name=SLUG".
 */
export function monitoredToken(command: string): string | null {
  return MONITORED.exec(command)?.[1] ?? null;
}

/** Characters that make a command more than a plain program with plain arguments. */
const PLAIN = /^[A-Za-z0-9_./:,+@-]+(?:\s+[A-Za-z0-9_./:,+@=-]+)*$/;

/** Shells whose syntax the fail-open line uses (`set --`, `[ ]`, `&&`, `exec "$@"`). */
const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'pdksh', 'zsh', 'busybox', 'posh', 'yash']);

/** Why a line run by `shell` cannot be rewritten (not a POSIX shell); null when it can. */
export function shellProblem(shell: string | null): string | null {
  const name = (shell ?? '/bin/sh').split('/').pop()!;
  return POSIX_SHELLS.has(name) ? null : `SHELL=${shell} is not a POSIX shell, so the fail-open line cannot run in it`;
}

/**
 * Words the shell runs itself (builtins and reserved words): `exec "$@"` and the job runner look
 * for a program of that name, and there is none (`exec`, `.`, `cd`), or it is another (`time`).
 */
const SHELL_OWN = new Set([
  '.', ':', 'alias', 'bg', 'break', 'builtin', 'case', 'cd', 'command', 'continue', 'declare', 'do', 'done', 'echo', 'elif', 'else', 'enable', 'esac',
  'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg', 'fi', 'for', 'function', 'getopts', 'hash', 'if', 'in', 'jobs', 'kill', 'let', 'local',
  'printf', 'pwd', 'read', 'readonly', 'return', 'select', 'set', 'shift', 'shopt', 'source', 'test', 'then', 'time', 'times', 'trap', 'true',
  'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'until', 'wait', 'while',
]);

/** The words that run the job: a plain command as it is, anything the shell interprets through `SHELL -c`. */
function jobWords(command: string, shell: string | null): string {
  const plain = PLAIN.test(command) && !SHELL_OWN.has(command.split(/\s/)[0]);
  return plain ? command : `${shellQuote(shell ?? '/bin/sh')} -c ${shellQuote(command)}`;
}

/**
 * The job's line, running its command through the shim at `invocation.shim`, and failing open:
 *
 *     set -- JOB; [ -r SHIM ] && [ -x SHIM ] && exec SHIM run TOKEN -- "$@"; exec "$@"
 *
 * JOB (the command's words) is written once. When the shim is gone or the crontab's user cannot
 * read or run it, the job runs directly; the shim runs it directly when Cronbeat's runner cannot
 * start it. `exec` leaves nothing to run after either, so the job runs exactly once, and its
 * exit status is the line's. Cron's % rule still applies: text from the first unescaped % stays
 * outside, as the stdin.
 */
export function rewriteJobLine(job: CronJob, token: string, invocation: Invocation, monitor?: NamedMonitor): string {
  const { head, tail } = splitRawAtPercent(job.command);
  const wrapped = failOpenCommand(jobWords(head.trim(), job.shell), token, invocation);
  const comment = monitor ? monitorComment(monitor) : '';
  // The comment is for people: it goes when the line would not fit cron's buffer with it.
  const command = (withComment: string) => `${wrapped}${withComment}${blanksAfter(head)}${tail}`;
  const fits = Buffer.byteLength(command(comment)) <= CRON_COMMAND_BYTES;
  return `${job.raw.slice(0, job.commandStart)}${command(fits ? comment : '')}`;
}

/**
 * The most bytes of a command Vixie cron and Debian's cron read (MAX_COMMAND, 1000 with its NUL):
 * they cut a longer one silently, and a wrapper cut short breaks its job.
 */
export const CRON_COMMAND_BYTES = 999;

/** A monitor token as the agent makes them (a UUID): the length a line will have before its monitor is made. */
const TOKEN_SIZED = '00000000-0000-0000-0000-000000000000';

/** Why `job` cannot be wrapped within cron's buffer (null when it can), for a token like the agent's or `token` given. */
export function tooLongToWrap(job: CronJob, invocation: Invocation, token = TOKEN_SIZED): string | null {
  const line = rewriteJobLine(job, token, invocation);
  const bytes = Buffer.byteLength(line.slice(job.commandStart));
  return bytes > CRON_COMMAND_BYTES ? `wrapped, its command would be ${bytes} bytes, more than the ${CRON_COMMAND_BYTES} Debian's cron reads (it cuts the rest)` : null;
}

/** The blanks that end the command before its stdin (or the line): kept outside the wrapper, so --undo gives the line back byte for byte. */
function blanksAfter(head: string): string {
  return head.slice(head.trimEnd().length);
}

/** The monitor a rewritten line pulses, named in a comment on the line; its id when it is made already. */
export interface NamedMonitor {
  id: number | null;
  name: string;
}

/** Names longer than this are cut in the comment: the line is long already. */
const COMMENT_NAME_CHARS = 80;

/**
 * ` # cronbeat monitor #12: nightly backup`: which monitor the line pulses, for whoever reads
 * the crontab. The shell skips it (a word starting with # after the last command), and it goes
 * before the stdin after %, so cron still feeds the job the same input. A % in the name is
 * written \% (cron would start the stdin at it) and a backslash \\ (one at the end would escape
 * the % that starts the stdin), control characters as \u escapes; --undo drops
 * the comment with the wrapper, so the line comes back byte for byte.
 */
function monitorComment({ id, name }: NamedMonitor): string {
  const short = (name.length > COMMENT_NAME_CHARS ? `${name.slice(0, COMMENT_NAME_CHARS - 1)}…` : name).trimEnd();
  // Backslashes and % first: the \u escapes below are pairs cron leaves alone.
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  const readable = short.replace(/[\\%]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return ` # cronbeat monitor${id === null ? '' : ` #${id}`}: ${readable}`;
}

function failOpenCommand(words: string, token: string, { shim, url }: Invocation): string {
  const s = shellQuote(shim);
  const urlOption = url ? ` --url ${shellQuote(url)}` : '';
  return `set -- ${words}; [ -r ${s} ] && [ -x ${s} ] && exec ${s} run${urlOption} ${token} -- "$@"; exec "$@"`;
}

const FAIL_OPEN = /^set -- (.*); \[ -r ('[^']*'|\S+) \] && \[ -x \2 \] && exec \2 run(?: --url ('[^']*'|\S+))? (\S+) -- "\$@"; exec "\$@"(?: # cronbeat monitor.*)?$/;
/** A word as shellQuote writes it: plain, or single-quoted with '\'' for a quote. */
const QUOTED_WORD = String.raw`(?:[A-Za-z0-9_./:,+@=-]+|'(?:[^']|'\\'')*')`;
/**
 * The line of discover before it installed its own entry point (`cronbeat` shim), exactly as it
 * wrote it: `NODE CRONBEAT.cjs run [--url U] TOKEN -- JOB`, two quoted paths and nothing before.
 * A line written by hand around `cronbeat run` (`cd /srv && cronbeat run …`, a redirection
 * after the job) is not one: moving or undoing it would lose what surrounds the call.
 */
const DIRECT = new RegExp(String.raw`^(${QUOTED_WORD} ${QUOTED_WORD}) run(?: --url (${QUOTED_WORD}))? (\S+) -- (.+)$`);
const CRONBEAT_PATH = /(?:^|\/)cronbeat(?:\.cjs)?'?$/;

/** A line discover rewrote: its token, agent URL, whether it fails open, and the job's own command as written. */
export interface MonitoredLine {
  token: string;
  url: string | null;
  failsOpen: boolean;
  /** The entry point a fail-open line calls; null for an older line. */
  shim: string | null;
  /** The command as it was before discover (the -c text of `SHELL -c '…'`, else the words). */
  original: string;
}

/** What discover made of a job's line, or null when discover did not write it. */
export function monitoredLine(job: CronJob): MonitoredLine | null {
  const head = splitRawAtPercent(job.command).head.trim();
  const failOpen = FAIL_OPEN.exec(head);
  const direct = failOpen ? null : olderLine(head);
  if (!failOpen && !direct) return null;
  const words = failOpen ? failOpen[1] : direct![4];
  const parsed = shellWords(words);
  const wrapped = parsed && parsed.length === 3 && parsed[1] === '-c' && parsed[0] === (job.shell ?? '/bin/sh');
  return {
    token: failOpen ? failOpen[4] : direct![3],
    url: unquoted(failOpen ? failOpen[3] : direct![2]),
    failsOpen: failOpen !== null,
    shim: failOpen ? unquoted(failOpen[2]) : null,
    original: wrapped ? parsed[2] : words,
  };
}

/** The parts of a line an older discover wrote (see DIRECT), or null: its job words are as that discover wrote them. */
function olderLine(head: string): RegExpExecArray | null {
  const match = DIRECT.exec(head);
  if (!match || !CRONBEAT_PATH.test(match[1])) return null;
  const words = match[4];
  const parsed = shellWords(words);
  const asWritten = PLAIN.test(words) || (parsed?.length === 3 && parsed[1] === '-c' && `${shellQuote(parsed[0])} -c ${shellQuote(parsed[2])}` === words);
  return asWritten ? match : null;
}

/** A line discover wrote before, in its fail-open form with the same token and URL (for lines of an older discover). */
export function failOpenLine(job: CronJob, line: MonitoredLine, shim: string): string {
  const { head, tail } = splitRawAtPercent(job.command);
  const words = FAIL_OPEN.exec(head.trim())?.[1] ?? olderLine(head.trim())![4];
  return `${job.raw.slice(0, job.commandStart)}${failOpenCommand(words, line.token, { shim, url: line.url })}${blanksAfter(head)}${tail}`;
}

/**
 * `cronbeat run [options] TOKEN|--name … -- CMD` written by hand (or by an older discover), and
 * nothing else: variables (`NAME=value`), node and cronbeat by their paths, run's words, `--`,
 * then CMD; null for any other line. Each word before CMD is plain or single-quoted: one in shell
 * syntax (`$(…)`, `;`, a glob) runs or changes something itself. Read word by word, not by one
 * pattern: a crontab is anyone's to write, and a pattern that backtracks could hang the watcher.
 */
function handRunLine(head: string): { runWords: string[]; command: string } | null {
  const words: string[] = [];
  for (let at = 0; ; ) {
    while (at < head.length && /\s/.test(head[at])) at++;
    if (at >= head.length) return null;
    if (head.startsWith('--', at) && (at + 2 === head.length || /\s/.test(head[at + 2]))) {
      const command = head.slice(at + 2).trim();
      const program = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
      const node = /(?:^|\/)node$/.test(words[program] ?? '') ? 1 : 0;
      const ours = /(?:^|\/)cronbeat(?:\.cjs)?$/.test(words[program + node] ?? '') && words[program + node + 1] === 'run';
      return program >= 0 && ours && command ? { runWords: words.slice(program + node + 2), command } : null;
    }
    let word = '';
    while (at < head.length && !/\s/.test(head[at])) {
      if (head[at] === "'") {
        const end = head.indexOf("'", at + 1);
        if (end < 0) return null;
        word += head.slice(at + 1, end);
        at = end + 1;
      } else if (/[A-Za-z0-9_./:,+@=%-]/.test(head[at])) {
        word += head[at++];
      } else {
        return null;
      }
    }
    words.push(word);
  }
}

/**
 * The job's own command when the line runs it through `cronbeat run` (discover's wrapper, or a
 * line written so by hand), with its stdin after %; null for any other line. This is what a
 * person knows the job by: the wrapper around it holds a token and says nothing of the job.
 * A line that runs anything more (before `cronbeat`, or a command of run's own before its `--`,
 * which run starts in place of the job after it) is none: quoted by the job, it would hide that.
 */
export function ownCommand(job: CronJob): string | null {
  const { head, tail } = splitRawAtPercent(job.command);
  const line = monitoredLine(job);
  const byHand = line ? null : handRunLine(head.trim());
  // run's own words must end at this `--`: none of them starts a command (no program is taken to be on PATH).
  const ours = byHand !== null && readRunWords([...byHand.runWords, '--', 'CMD'], () => false).command.join(' ') === 'CMD';
  const command = line ? line.original : ours ? byHand.command : undefined;
  return command === undefined ? null : `${command.trim()}${tail}`.trim();
}

/** The job's line as it was before discover: its command written back in place of the wrapped one. */
export function undoneLine(job: CronJob, line: MonitoredLine): string {
  const { head, tail } = splitRawAtPercent(job.command);
  return `${job.raw.slice(0, job.commandStart)}${line.original}${blanksAfter(head)}${tail}`;
}

function unquoted(word: string | undefined): string | null {
  if (word === undefined) return null;
  return shellWords(word)?.[0] ?? word;
}

/** Splits words written by shellQuote (plain words and '…' with '\'' inside); null for anything else. */
function shellWords(text: string): string[] | null {
  const words: string[] = [];
  const pattern = /\s*((?:[^\s'\\]+|'[^']*'|\\')+)/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  while ((match = pattern.exec(text)) !== null) {
    words.push(match[1].replace(/'([^']*)'|\\'/g, (quoted, inner: string | undefined) => (quoted === "\\'" ? "'" : inner!)));
    end = pattern.lastIndex;
  }
  return text.slice(end).trim() === '' ? words : null;
}
