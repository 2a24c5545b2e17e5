import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Spool } from '../../agent/client/spool/spool';
import { CLI, cleanEnv, runCli, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';

/*
 * Long CLI work shows its progress on stderr when that is a terminal, and
 * nothing when it is not. The terminal is a real pty, made by util-linux's `script`.
 */
vi.setConfig({ testTimeout: 60_000 });

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI on a pty (stdin, stdout and stderr all the terminal); resolves with all it printed and its exit status. */
function runOnTerminal(args: string[], env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  // `script` runs its command with $SHELL -c, and the command is quoted for sh.
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: cleanEnv({ ...env, SHELL: '/bin/sh' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, output })));
}

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('progress on a terminal, nothing elsewhere', () => {
  it('backup and restore of a big database', async () => {
    const dataDir = tempFolder();
    expect((await runCli(['token', 'create', '--data-dir', dataDir])).status).toBe(0);
    const db = new Database(join(dataDir, 'cronbeat.db'));
    db.exec('CREATE TABLE ballast (bytes BLOB)');
    const insert = db.prepare('INSERT INTO ballast VALUES (randomblob(1048576))');
    for (let i = 0; i < 24; i++) insert.run();
    db.close();
    const out = join(tempFolder(), 'big.db');

    const shown = await runOnTerminal(['backup', '--out', out, '--data-dir', dataDir], {});
    expect(shown.status).toBe(0);
    expect(shown.output).toMatch(/Backing up: \d+% \(\d+\.\d of 2\d\.\d MB\)/);
    expect(shown.output).toContain('\r\u001b[KBacked up '); // the progress line is cleared before the result
    const piped = await runCli(['backup', '--out', out, '--data-dir', dataDir]);
    expect(piped).toMatchObject({ status: 0, stderr: '' });

    const restored = await runOnTerminal(['restore', out, '--data-dir', tempFolder()], {});
    expect(restored.status).toBe(0);
    expect(restored.output).toMatch(/Restoring: 100% \(2\d\.\d of 2\d\.\d MB\)/);
    const quiet = await runCli(['restore', out, '--data-dir', tempFolder()]);
    expect(quiet).toMatchObject({ status: 0, stderr: '' });
  });

  it('spool flush', async () => {
    const monitor = await createMonitor(agent, 'spooled');
    const fill = async () => {
      const clientDir = tempFolder();
      const spool = new Spool(clientDir);
      for (let i = 0; i < 40; i++) await spool.append(agent.url, { tokenOrSlug: monitor.token, signal: 'success', key: `k-${clientDir}-${i}`, at: Date.now() });
      return clientDir;
    };
    const shown = await runOnTerminal(['spool', 'flush'], { CRONBEAT_DATA_DIR: await fill() });
    expect(shown.status).toBe(0);
    expect(shown.output).toMatch(/Delivering the spool: \d+% \(\d+ of 40 pulses\)/);
    expect(shown.output).toContain('Delivered 40 pulses; 0 still waiting.');
    const piped = await runCli(['spool', 'flush'], { env: { CRONBEAT_DATA_DIR: await fill() } });
    expect(piped).toMatchObject({ status: 0, stderr: '' });
  });

  it('crontab discover over many lines', async () => {
    const crontab = (folder: string) => {
      const file = join(folder, 'crontab');
      writeFileSync(file, Array.from({ length: 30 }, (_, i) => `${i} 3 * * * /usr/local/bin/job-${i}.sh\n`).join(''));
      return file;
    };
    // The entry point goes in a stable folder of the test's own, never the machine's /usr/local/lib/cronbeat.
    const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
    onTestFinished(() => rmSync(shimDir, { recursive: true, force: true }));
    const env = (folder: string) => ({ CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir });
    const first = tempFolder();
    const shown = await runOnTerminal(['crontab', 'discover', '--file', crontab(first)], env(first));
    expect(shown.status).toBe(0);
    expect(shown.output).toMatch(/Creating monitors: 0% \(0 of 30 crontab lines\)/);
    const second = tempFolder();
    const piped = await runCli(['crontab', 'discover', '--file', crontab(second)], { env: env(second) });
    expect(piped).toMatchObject({ status: 0, stderr: '' });
  });
});
