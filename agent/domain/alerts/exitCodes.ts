/*
 * What an exit code says beyond "failed": a shell reports a job killed by signal N as 128 + N,
 * and 126/127 when the command could not be run at all. A bare "exit code 137" sends people
 * reading the job's own docs when the kernel killed it, most often for memory.
 */

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
};

/** The meaning of `code` in a few words ("killed, SIGKILL: perhaps out of memory"), or null for an ordinary one. */
export function exitCodeMeaning(code: number | null): string | null {
  if (code === null) return null;
  if (code === 126) return 'the command could not be run: not executable';
  if (code === 127) return 'command not found';
  const signal = code > 128 && code < 160 ? SIGNALS[code - 128] : undefined;
  if (signal === undefined) return null;
  if (signal === 'SIGKILL') return 'killed, SIGKILL: perhaps out of memory';
  if (signal === 'SIGSEGV') return 'crashed, SIGSEGV';
  if (signal === 'SIGABRT') return 'aborted, SIGABRT';
  return `killed, ${signal}`;
}

/** "137 (killed, SIGKILL: perhaps out of memory)", or the bare code. */
export function exitCodeWords(code: number): string {
  const meaning = exitCodeMeaning(code);
  return meaning === null ? String(code) : `${code} (${meaning})`;
}
