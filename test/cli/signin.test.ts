import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createInterface } from 'node:readline';
import { CLI, cleanEnv, closedPort, runCli, spawnCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';
import { SIGN_IN_BY_COMMAND } from '../../agent/cli/serveBanner';
import { startTestAgent } from '../helpers/testAgent';

/*
 * `cronbeat signin`: a new one-time sign-in link from the agent running on this data folder, for
 * when the one `serve` printed at start has been used, has expired or scrolled away (a service).
 */
vi.setConfig({ testTimeout: 60_000 });

const running: ServeProcess[] = [];
afterAll(async () => {
  for (const serve of running) await serve.stop();
});

const trade = (url: string, code: string) =>
  fetch(`${url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });

describe('cronbeat signin', () => {
  it('prints a new link to the running agent whose code signs in once', async () => {
    const dataDir = tempFolder();
    const serve = await startServe(['--data-dir', dataDir]);
    running.push(serve);
    const printed = await runCli(['signin', '--data-dir', dataDir], { env: { CRONBEAT_URL: undefined } });
    expect(printed.stderr).toBe('');
    expect(printed.status).toBe(0);
    const link = new RegExp(`^Open the dashboard \\(link works once, for 15 minutes\\): (${serve.url.replace(/[.]/g, '\\.')})/#/sign-in\\?code=([\\w-]+)$`).exec(printed.stdout.trim());
    expect(link, printed.stdout).not.toBeNull();
    expect((await trade(serve.url, link![2]!)).status).toBe(201);
    expect((await trade(serve.url, link![2]!)).status).toBe(422); // once

    const again = await runCli(['signin', '--data-dir', dataDir]);
    const code = /code=([\w-]+)/.exec(again.stdout)![1]!;
    expect(code).not.toBe(link![2]);
    expect((await trade(serve.url, code)).status).toBe(201);
  });

  it('refuses a data folder no agent runs on, though another agent answers at the URL, and makes nothing there', async () => {
    // The agent answering at the URL only has to be another one: this process's will do.
    const other = await startTestAgent();
    try {
      const stopped = tempFolder();
      await runCli(['token', 'create', '--data-dir', stopped]);
      const typo = join(tempFolder(), 'cronbeat-typo');
      for (const dataDir of [stopped, typo]) {
        const result = await runCli(['signin', '--data-dir', dataDir, '--url', other.url]);
        expect(result.stdout).toBe('');
        expect(result.stderr.trim().split('\n')).toEqual([
          `cronbeat: No Cronbeat agent runs on the data folder ${dataDir}, so no link from it would sign in: start one with \`cronbeat serve\`, or give the folder of the one running with --data-dir (and run signin as the user it runs as).`,
        ]);
        expect(result.status).toBe(1);
      }
      expect(existsSync(typo)).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it('gives a link at the public URL when the agent has one (behind a TLS proxy), in serve\'s banner and from signin', async () => {
    const dataDir = tempFolder();
    const child = spawnCli(['serve', '--port', '0', '--no-popups', '--data-dir', dataDir, '--public-url', 'https://cron.example.com']);
    const lines: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        // The banner's last line: the public one, or (without it) the one link.
        if (line.includes('sign-in?code=') && !line.startsWith('  on this machine:')) resolve(/^Cronbeat listening on (\S+)$/.exec(lines[0]!)![1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${lines.join('\n')}`)));
    });
    running.push({ child, url, stop: () => (child.kill('SIGTERM'), new Promise((done) => child.once('exit', done))) } as ServeProcess);
    const code = /code=([\w-]+)/.exec(lines.join('\n'))![1]!;
    expect(lines).toContain(`  at the public URL:    https://cron.example.com/#/sign-in?code=${code}`);
    expect(lines).toContain(`  on this machine:      ${url}/#/sign-in?code=${code}`);

    const printed = await runCli(['signin', '--data-dir', dataDir]);
    const again = /code=([\w-]+)/.exec(printed.stdout)![1]!;
    expect(printed.stdout).toContain(`  at the public URL:    https://cron.example.com/#/sign-in?code=${again}`);
    expect((await trade(url, again)).status).toBe(201);
  });

  it('says in one line that no agent runs on the data folder, and exits 1', async () => {
    const port = await closedPort();
    const result = await runCli(['signin', '--data-dir', tempFolder(), '--url', `http://127.0.0.1:${port}`]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`cronbeat: No Cronbeat agent answers at http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('cronbeat serve');
  });
});

describe('cronbeat serve under systemd, its output in the journal', () => {
  /** `serve` with its standard output in a file that JOURNAL_STREAM names, or another: what it printed once listening. */
  async function serveToJournal(named: 'its output' | 'another file') {
    const dataDir = tempFolder();
    const output = join(tempFolder(), 'journal');
    const fd = openSync(output, 'w');
    const other = join(tempFolder(), 'other');
    const journal = named === 'its output' ? fstatSync(fd, { bigint: true }) : (closeSync(openSync(other, 'w')), statSync(other, { bigint: true }));
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
      env: cleanEnv({ JOURNAL_STREAM: `${journal.dev}:${journal.ino}` }),
      stdio: ['ignore', fd, 'ignore'],
    });
    closeSync(fd);
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    try {
      await vi.waitFor(() => expect(readFileSync(output, 'utf8')).toMatch(/^Open the dashboard/m), { timeout: 30_000, interval: 50 });
      const url = /^Cronbeat listening on (\S+)$/m.exec(readFileSync(output, 'utf8'))![1]!;
      // Once writable (its start-up check done), the agent has stored the code of any link it printed.
      await vi.waitFor(async () => expect((await fetch(`${url}/api/health`)).status).toBe(200), { timeout: 30_000, interval: 50 });
      const signIn = await runCli(['signin', '--data-dir', dataDir]);
      return { printed: readFileSync(output, 'utf8'), signIn, url };
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }

  it('writes no sign-in link there, says how to get one, and `cronbeat signin` prints one that works', async () => {
    const { printed, signIn } = await serveToJournal('its output');
    expect(printed).not.toMatch(/code=/);
    expect(printed).toContain(SIGN_IN_BY_COMMAND);
    expect(signIn.status).toBe(0);
    expect(signIn.stdout).toMatch(/sign-in\?code=[\w-]+/);
  });

  it('prints the link as before when its output was sent elsewhere (a terminal, a file, a pipe)', async () => {
    const { printed } = await serveToJournal('another file');
    expect(printed).toMatch(/^Open the dashboard \(link works once, for 15 minutes\): http:\/\/127\.0\.0\.1:\d+\/#\/sign-in\?code=[\w-]+$/m);
    expect(printed).not.toContain(SIGN_IN_BY_COMMAND);
  });
});
