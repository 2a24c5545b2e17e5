import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { withInheritedFds } from './inheritedFds';

/*
 * Node holds arguments and environment variables as text, and passes them on as UTF-8: a byte
 * that is not UTF-8 (a Latin-1 file name, `caf\xe9`) reaches the job as U+FFFD, a different file.
 * Linux keeps the bytes this process was started with (/proc/self/cmdline and environ); when some
 * are not UTF-8, the job is started through /bin/sh, which puts those bytes back and execs it.
 */

/** The longest script that safely fits in one argument (Linux takes 128 KB). */
const MAX_SCRIPT_BYTES = 100_000;

/** How to start the job so that it gets `command` and the environment exactly as this process got them. */
interface JobStart {
  file: string;
  args: string[];
  /** Started through /bin/sh, which puts back bytes Node changed. */
  restored?: boolean;
}

/** The NUL-separated entries of a /proc file, as bytes; null where it cannot be read. */
function entriesOf(file: string): Buffer[] | null {
  let all: Buffer;
  try {
    all = readFileSync(file);
  } catch {
    return null;
  }
  const entries: Buffer[] = [];
  for (let start = 0; start < all.length; ) {
    const end = all.indexOf(0, start);
    entries.push(all.subarray(start, end < 0 ? all.length : end));
    start = end < 0 ? all.length : end + 1;
  }
  return entries;
}

/** Whether `bytes` are what the text Node made of them encodes back to. */
const isUtf8 = (bytes: Buffer) => Buffer.from(bytes.toString('utf8')).equals(bytes);

/** `bytes` as a sh word that gives them back exactly: printf's octal escapes, a trailing dot kept from $( ) stripping newlines. */
const bytesWord = (bytes: Buffer) => `"$(printf '${[...bytes].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}.')"`;

/**
 * The status of a command that could not start, as a shell, env, nice or timeout gives it: 126
 * for one that is there but cannot be run (not executable, a folder), 127 for one not found.
 */
export function notRunnableStatus(error: NodeJS.ErrnoException | undefined): number {
  return error?.code === 'EACCES' || error?.code === 'ENOEXEC' || error?.code === 'EISDIR' ? 126 : 127;
}

/**
 * Starts `command` with every byte it was given (jobStart) and every file descriptor this process
 * was started with (withInheritedFds). The bytes put back take room: a command line that fits the
 * kernel's limit for a whole one (ARG_MAX, 2 MB by default) may not with them (E2BIG), and the job
 * then runs as Node passes it rather than not at all; so does a job whose descriptors cannot be
 * given. Throws what spawn throws otherwise.
 */
export function spawnJob(command: string[], options: SpawnOptions): ChildProcess {
  const start = jobStart(command);
  const stdio = withInheritedFds(options.stdio ?? 'pipe');
  try {
    return spawnFrom(start, command, stdio === options.stdio ? options : { ...options, stdio });
  } catch (error) {
    if (stdio === options.stdio) throw error;
    return spawnFrom(start, command, options);
  }
}

function spawnFrom(start: JobStart, command: string[], options: SpawnOptions): ChildProcess {
  try {
    return spawn(start.file, start.args, options);
  } catch (error) {
    if (!start.restored || (error as NodeJS.ErrnoException).code !== 'E2BIG') throw error;
    return spawn(command[0], command.slice(1), options);
  }
}

/** How to start `command` (the last words of this process's own arguments) with every byte it was given. */
function jobStart(command: string[]): JobStart {
  const plain = { file: command[0], args: command.slice(1) };
  const argv = entriesOf('/proc/self/cmdline');
  const environ = entriesOf('/proc/self/environ');
  if (!argv || argv.length < command.length) return plain;
  const words = argv.slice(argv.length - command.length);
  // Only when the job's own words are what Node read: /proc says what this process was started with.
  if (words.some((bytes, i) => bytes.toString('utf8') !== command[i])) return plain;
  const lines: string[] = [];
  words.forEach((bytes, i) => {
    if (!isUtf8(bytes)) lines.push(`[ "$__cronbeat_i" = ${i + 1} ] && __cronbeat_a=${bytesWord(bytes)} && __cronbeat_a=\${__cronbeat_a%.}`);
  });
  const restored: string[] = [];
  for (const entry of environ ?? []) {
    const equals = entry.indexOf(0x3d);
    const name = equals > 0 ? entry.subarray(0, equals).toString('latin1') : '';
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isUtf8(entry.subarray(equals + 1))) {
      restored.push(`${name}=${bytesWord(entry.subarray(equals + 1))} && ${name}=\${${name}%.} && export ${name}`);
    }
  }
  if (lines.length === 0 && restored.length === 0) return plain;
  try {
    accessSync('/bin/sh', constants.X_OK);
  } catch {
    return plain; // no shell to put the bytes back: the job still runs, as Node passes it
  }
  // A bash that is /bin/sh counts itself in SHLVL: the job gets the level it was given.
  const level = (environ ?? []).find((entry) => entry.subarray(0, 6).toString('latin1') === 'SHLVL=');
  const shlvl = level && /^\d{1,6}$/.test(level.subarray(6).toString('latin1')) ? `SHLVL=${level.subarray(6).toString('latin1')} && export SHLVL` : 'unset SHLVL';
  // And a shell exports PWD as it starts, the real folder in place of the one given: the job gets
  // its own (none, under cron), byte for byte.
  const folders = ['PWD', 'OLDPWD'].map((name) => {
    const given = (environ ?? []).find((entry) => entry.subarray(0, name.length + 1).toString('latin1') === `${name}=`);
    return given ? `${name}=${bytesWord(given.subarray(name.length + 1))} && ${name}=\${${name}%.} && export ${name}` : `unset ${name}`;
  });
  const script = [
    '__cronbeat_i=0',
    'for __cronbeat_a do',
    '  __cronbeat_i=$((__cronbeat_i + 1))',
    ...lines.map((line) => `  ${line}`),
    '  set -- "$@" "$__cronbeat_a"',
    'done',
    `shift ${command.length}`,
    'unset __cronbeat_i __cronbeat_a',
    ...restored,
    shlvl,
    ...folders,
    'exec "$@"',
  ].join('\n');
  // One argument may hold at most 128 KB (Linux's MAX_ARG_STRLEN): past that the job would not
  // start at all, and a byte Node changes is better than a job that does not run.
  if (Buffer.byteLength(script) > MAX_SCRIPT_BYTES) return plain;
  return { file: '/bin/sh', args: ['-c', script, 'sh', ...command], restored: true };
}
