import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CLI, cleanEnv, finished, tempFolder, type CliResult } from '../helpers/cli';

// Real node processes on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

/** Limits of open files around the twenty or so Node holds itself as it starts, where the pipes for the job's output may not fit. */
const LIMITS = Array.from({ length: 19 }, (_, i) => 16 + i);

interface Outcome extends CliResult {
  limit: number;
  ran: boolean;
}

/** `cronbeat run -- JOB` under `ulimit -n LIMIT` (soft and hard: Node raises the soft one to the hard one as it starts). */
async function runUnder(limit: number): Promise<Outcome> {
  const folder = tempFolder();
  const marker = join(folder, 'ran');
  const job = ['/bin/sh', '-c', 'echo ran > "$0"; exit 3', marker];
  const child = spawn('/bin/sh', ['-c', 'ulimit -n "$1" && shift && exec "$@"', 'sh', String(limit), process.execPath, CLI, 'run', '--', ...job], {
    env: cleanEnv({ CRONBEAT_DATA_DIR: folder, TMPDIR: folder }),
    stdio: 'pipe',
  });
  const result = await finished(child);
  return { ...result, limit, ran: existsSync(marker) };
}

describe('cronbeat run under a low limit of open files (ulimit -n)', () => {
  it('starts the job wherever run itself starts, without its output pipes when they do not fit, and never crashes', async () => {
    const outcomes = await Promise.all(LIMITS.map(runUnder));
    // Below some limit Node itself cannot load the CLI (EMFILE opening it, or a crash of its own): out of run's hands.
    const runStarted = outcomes.filter((o) => o.stderr.includes('cronbeat: not monitoring this run'));
    expect(runStarted.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
    for (const outcome of runStarted) {
      // It used to crash between about 19 and 24 here (spawn EMFILE: "Cannot read properties of undefined", then an
      // unhandled 'error' event and its stack), and the job never started, where a shell would have run it.
      expect(outcome.stderr, `ulimit -n ${outcome.limit}`).not.toMatch(/Unhandled 'error'|Cannot read properties/);
      // Where it leaves no room for even the job's own start, one line says so, with a shell's status for it.
      const seen = { limit: outcome.limit, ran: outcome.ran, status: outcome.status, said: /cannot start "\/bin\/sh": spawn \/bin\/sh EMFILE/.test(outcome.stderr) };
      expect(seen).toEqual(outcome.ran ? { ...seen, status: 3 } : { ...seen, status: 127, said: true });
    }
    // And the job runs from the limit at which run first could start it on.
    const first = runStarted.findIndex((o) => o.ran);
    expect(first, JSON.stringify(runStarted)).toBeGreaterThanOrEqual(0);
    expect(runStarted.slice(first).every((o) => o.ran)).toBe(true);
  });
});
