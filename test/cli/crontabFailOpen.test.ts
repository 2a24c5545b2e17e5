import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobsOf, parseCrontab } from '../../agent/cli/crontab/parse';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder, type CliResult } from '../helpers/cli';

/*
 * A line `crontab discover` wrote never stops the job it wraps. Each case runs the
 * rewritten line as cron does (`/bin/sh -c`, as the line's user `nobody`, cron's short PATH)
 * and counts the job's runs in a file.
 */

vi.setConfig({ testTimeout: 60_000 });

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
let agent: TestAgent;
let stable: string;
let work: string;

beforeAll(async () => {
  agent = await startTestAgent();
  // A stable folder, as /usr/local/lib would be (no temporary folder: the entry point may not live there).
  stable = mkdtempSync('/var/lib/cronbeat-test-');
  chmodSync(stable, 0o755);
  work = join(stable, 'work');
  mkdirSync(work, { mode: 0o777 });
  chmodSync(work, 0o777);
});
afterAll(async () => {
  await agent.stop();
  rmSync(stable, { recursive: true, force: true });
});

/** Runs a system-crontab line's command as cron would: its user, /bin/sh -c, the text after % on stdin. */
function runAsCron(line: string, variables: Record<string, string> = {}): Promise<CliResult> {
  const job = jobsOf(parseCrontab(line, 'system'))[0]!;
  return new Promise((done, reject) => {
    const child = spawn('/bin/sh', ['-c', job.shellCommand], {
      cwd: '/',
      // cron exports the crontab's own variables (NAME=value lines) to the job.
      env: { HOME: '/nonexistent', LOGNAME: job.user!, SHELL: '/bin/sh', PATH: '/usr/bin:/bin', ...variables },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(isRoot && job.user === 'nobody' ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
    child.stdin.on('error', () => {}); // a job that reads no stdin may be gone before it is written
    child.stdin.end(job.stdin ?? '');
  });
}

/** How many times the job ran, since the last call. */
function runsCounted(counter: string): number {
  let text = '';
  try {
    text = readFileSync(counter, 'utf8');
    unlinkSync(counter);
  } catch {
    // never ran
  }
  return text.split('\n').filter(Boolean).length;
}

interface Discovered {
  file: string;
  lines: string[];
  shimDir: string;
  counter: string;
  token: string;
}

/** A system crontab with one job for nobody (appends to a counter, exits 3), discovered through cronbeat. */
async function discovered(job: (counter: string) => string): Promise<Discovered> {
  const folder = tempFolder();
  const file = join(folder, 'cron.d-backup');
  const counter = join(work, `count-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, `# backups\n*/5 * * * * nobody ${job(counter)}\n`);
  const shimDir = join(stable, `bin-${Math.random().toString(36).slice(2)}`);
  const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir, TZ: 'UTC' };
  const result = await runCli(['crontab', 'discover', '--system-file', file], { env });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const lines = readFileSync(file, 'utf8').split('\n');
  const token = /run --url \S+ (\S+) --/.exec(lines[1])![1];
  return { file, lines, shimDir, counter, token };
}

const failing = (counter: string) => `echo ran >> ${counter}; exit 3`;

/** A script, readable and runnable by all, that appends to `counter` and exits 3 (sourced with ., it ends the shell with 3). */
function script(counter: string): string {
  const path = `${counter}.sh`;
  writeFileSync(path, `echo ran >> ${counter}\nexit 3\n`, { mode: 0o755 });
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!isRoot)('a discovered line fails open (run as nobody, as cron does)', () => {
  it('shows the exact line and a grace that fits the schedule in --dry-run', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '*/5 * * * * /usr/local/bin/poll.sh\n0 3 * * * /usr/local/bin/backup.sh --full\n');
    const shimDir = join(stable, 'dry');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir, TZ: 'UTC' };
    const dry = await runCli(['crontab', 'discover', '--file', file, '--dry-run'], { env });
    expect(dry.status).toBe(0);
    const shim = join(shimDir, 'cronbeat');
    expect(dry.stdout).toContain(`Entry point: ${shim} (fails open`);
    expect(dry.stdout).toContain('"/usr/local/bin/poll.sh"  */5 * * * *  UTC  grace 5 min');
    expect(dry.stdout).toContain('"/usr/local/bin/backup.sh --full"  0 3 * * *  UTC  grace 60 min');
    expect(dry.stdout).toContain(
      `    */5 * * * * set -- /usr/local/bin/poll.sh; [ -r ${shim} ] && [ -x ${shim} ] && exec ${shim} run --url ${agent.url} <monitor-token> -- "$@"; exec "$@" # cronbeat monitor: /usr/local/bin/poll.sh\n`,
    );
    expect(readdirSync(stable)).not.toContain('dry'); // a dry run installs nothing
  });

  it('runs the job through cronbeat once, with its own exit status and pulses, and undoes the line', async () => {
    const d = await discovered(failing);
    expect(d.lines[1]).toMatch(/^\*\/5 \* \* \* \* nobody set -- \/bin\/sh -c '.*'; \[ -r /);
    expect(d.lines[1]).not.toMatch(/\/tmp\/|_npx|\.npm/);
    const ran = await runAsCron(d.lines[1]);
    expect(ran.status).toBe(3);
    expect(runsCounted(d.counter)).toBe(1);
    const monitor = ((await (await agent.api('/api/monitors')).json()) as Array<Record<string, unknown>>).find((m) => m.token === d.token)!;
    // What run said (a pulse kept in the spool, and why) is the message of a failure here.
    expect(monitor, ran.stderr).toMatchObject({ duration: 5, status: 'failed', alert_reason: 'Failed: the job exited with code 3' });

    const undo = await runCli(['crontab', 'discover', '--undo', '--system-file', d.file], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(undo.status).toBe(0);
    expect(readFileSync(d.file, 'utf8')).toBe(`# backups\n*/5 * * * * nobody ${failing(d.counter)}\n`);
  });

  it.each([
    // The line itself runs the job when it cannot run the entry point; the entry point says why it did.
    ['the entry point is gone', false, (d: Discovered) => rmSync(d.shimDir, { recursive: true })],
    ['the entry point is unreadable by the job user', false, (d: Discovered) => chmodSync(join(d.shimDir, 'cronbeat'), 0o700)],
    ['the job runner is unreadable by the job user', true, (d: Discovered) => chmodSync(join(d.shimDir, 'cronbeat-run.cjs'), 0o600)],
    ['the job runner is gone', true, (d: Discovered) => unlinkSync(join(d.shimDir, 'cronbeat-run.cjs'))],
    ['the job runner throws as it loads', true, (d: Discovered) => writeFileSync(join(d.shimDir, 'cronbeat-run.cjs'), 'throw new Error("broken install");\n')],
  ])('runs the job directly, once, with its own exit status, when %s', async (_, told, breakIt) => {
    const d = await discovered(failing);
    breakIt(d);
    const ran = await runAsCron(d.lines[1]);
    expect(ran.status).toBe(3);
    expect(runsCounted(d.counter)).toBe(1);
    if (told) expect(ran.stderr).toMatch(/cronbeat: the job runner could not start \(.*\); running the job without monitoring\n$/);
  });

  it.each([
    // A plain command whose first word the shell runs itself: no program of that name to exec.
    ['starts with a shell builtin (exec)', (counter: string) => `exec ${script(counter)}`],
    ['starts with a shell builtin (.)', (counter: string) => `. ${script(counter)}`],
    // cron pairs backslashes: \\\\% is a pair, then the % that starts the stdin (here, the word cat appends).
    ['ends its command in a backslash pair before %', (counter: string) => `cat >> ${counter}; exit 3 # \\\\%ran`],
  ])('runs a job whose line %s once, with its own exit status, through cronbeat and without it', async (_, job) => {
    const d = await discovered(job);
    expect(await runAsCron(d.lines[1])).toMatchObject({ status: 3 });
    expect(runsCounted(d.counter)).toBe(1);
    rmSync(d.shimDir, { recursive: true });
    expect(await runAsCron(d.lines[1])).toMatchObject({ status: 3 });
    expect(runsCounted(d.counter)).toBe(1);
  });

  it("gives the job the crontab's variables as they are, whatever their names", async () => {
    const variables = { node: 'mine', runner: 'mine', started: 'mine', status: 'mine' };
    const d = await discovered((counter) => `echo "$node $runner $started $status" >> ${counter}; exit 3`);
    expect(await runAsCron(d.lines[1], variables)).toMatchObject({ status: 3 });
    expect(readFileSync(d.counter, 'utf8')).toBe('mine mine mine mine\n');
    unlinkSync(d.counter);
    chmodSync(join(d.shimDir, 'cronbeat-run.cjs'), 0o600); // the entry point runs the job itself
    expect(await runAsCron(d.lines[1], variables)).toMatchObject({ status: 3 });
    expect(readFileSync(d.counter, 'utf8')).toBe('mine mine mine mine\n');
  });

  it('never runs the job twice when cronbeat dies after the job began', async () => {
    // The job kills its parent, the job runner, at once: the shim has heard "started", so it only reports.
    const d = await discovered((counter) => `echo ran >> ${counter}; kill -9 $PPID; exit 3`);
    const ran = await runAsCron(d.lines[1]);
    expect(ran.status).toBe(137);
    expect(runsCounted(d.counter)).toBe(1);
  });

  it('keeps running the job after the npx cache discover ran from is cleaned, and moves old lines to the entry point', async () => {
    // cronbeat as `npx cronbeat` leaves it: in a package cache, its packages found beside it.
    const cache = join(tempFolder(), '.npm', '_npx', '4f1c', 'node_modules', 'cronbeat', 'dist');
    mkdirSync(cache, { recursive: true });
    for (const name of ['cronbeat.cjs', 'cronbeat-full.cjs']) copyFileSync(resolve(__dirname, '../../dist', name), join(cache, name));
    const folder = tempFolder();
    const file = join(folder, 'cron.d-backup');
    const counter = join(work, 'count-npx');
    writeFileSync(file, `*/5 * * * * nobody ${failing(counter)}\n`);
    const env = {
      CRONBEAT_URL: agent.url,
      CRONBEAT_API_TOKEN: agent.token,
      CRONBEAT_DATA_DIR: folder,
      CRONBEAT_SHIM_DIR: join(stable, 'npx-bin'),
      NODE_PATH: resolve(__dirname, '../../node_modules'),
    };
    const found = await new Promise<CliResult>((done) => {
      const child = spawn(process.execPath, [join(cache, 'cronbeat.cjs'), 'crontab', 'discover', '--system-file', file], { env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
    });
    expect(found.stderr).toBe('');
    expect(found.status).toBe(0);
    const line = readFileSync(file, 'utf8').split('\n')[0];
    expect(line).not.toContain(cache);
    rmSync(join(cache, '..', '..', '..'), { recursive: true }); // the cache is cleaned
    expect(await runAsCron(line)).toMatchObject({ status: 3 });
    expect(runsCounted(counter)).toBe(1);

    // A line an older discover wrote into the cache is moved to the entry point, same token.
    const token = /run --url \S+ (\S+) --/.exec(line)![1];
    writeFileSync(file, `*/5 * * * * nobody ${process.execPath} ${join(cache, 'cronbeat.cjs')} run --url ${agent.url} ${token} -- /bin/sh -c 'echo ran >> ${counter}; exit 3'\n`);
    expect((await runAsCron(readFileSync(file, 'utf8'))).status).not.toBe(3); // the old line: MODULE_NOT_FOUND, the job never ran
    expect(runsCounted(counter)).toBe(0);
    const moved = await runCli(['crontab', 'discover', '--system-file', file], { env });
    expect(moved.stdout).toContain('Line 1 now runs through');
    const movedLine = readFileSync(file, 'utf8').split('\n')[0];
    expect(movedLine).toContain(` ${token} -- "$@"`);
    expect((await runAsCron(movedLine)).status).toBe(3);
    expect(runsCounted(counter)).toBe(1);
  });

  it('brings the entry point up to date when run again with nothing to discover (after an upgrade)', async () => {
    const d = await discovered(failing);
    const runner = join(d.shimDir, 'cronbeat-run.cjs');
    writeFileSync(runner, '// an older runner\n');
    const shim = join(d.shimDir, 'cronbeat');
    writeFileSync(shim, '#!/bin/sh\n# an older entry point, which passed no signal on\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: d.shimDir };
    const again = await runCli(['crontab', 'discover', '--system-file', d.file], { env });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Nothing to do: no job without a monitor.');
    expect(again.stdout).toContain(`Updated the entry point ${join(d.shimDir, 'cronbeat')} and its job runner.`);
    expect(readFileSync(runner)).toEqual(readFileSync(resolve(__dirname, '../../dist/cronbeat.cjs')));
    expect(readFileSync(shim, 'utf8')).toContain("trap 'cronbeat_pass TERM 143' TERM");
    expect(readFileSync(d.file, 'utf8').split('\n')).toEqual(d.lines);
  });

  it('refuses an entry point in a temporary folder', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '*/5 * * * * /usr/local/bin/poll.sh\n');
    const result = await runCli(['crontab', 'discover', '--file', file, '--shim-dir', join(folder, 'bin')], { env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^cronbeat: The entry point cannot live in .*: \/tmp is a temporary folder\. Give a stable folder with --shim-dir\.\n$/);
  });
});
