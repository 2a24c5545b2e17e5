import { describe, expect, it, vi } from 'vitest';
import { runCli, spawnCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat serve`'s environment switches given a value they do not take (a compose file's
 * `CRONBEAT_LOG_LEVEL: verbose`, `CRONBEAT_TRUST_PROXY: maybe`): one line naming the variable and
 * what it takes, exit 2, nothing started; never a logging library's own words, nor a switch
 * silently left off.
 */
vi.setConfig({ testTimeout: 60_000 });

const serve = (env: Record<string, string>) => runCli(['serve', '--port', '0', '--no-popups', '--data-dir', tempFolder()], { env });

describe('cronbeat serve refuses a junk environment switch in one line', () => {
  it('CRONBEAT_LOG_LEVEL=verbose', async () => {
    const result = await serve({ CRONBEAT_LOG_LEVEL: 'verbose' });
    expect(result.stderr).toBe('cronbeat: CRONBEAT_LOG_LEVEL must be debug, info, warn or error (or trace, fatal, silent), not "verbose".\n');
    expect(result.status).toBe(2);
  });

  for (const value of ['maybe', 'enabled', '2']) {
    it(`CRONBEAT_TRUST_PROXY=${value}`, async () => {
      const result = await serve({ CRONBEAT_TRUST_PROXY: value });
      expect(result.stderr).toBe(`cronbeat: CRONBEAT_TRUST_PROXY must be 1, true, yes or on to trust the proxy's headers (0, false, no, off or empty not to), not "${value}".\n`);
      expect(result.status).toBe(2);
    });
  }
});

/** `cronbeat serve` on all addresses, its stderr collected from the start. */
function serveAll(env: Record<string, string>) {
  const child = spawnCli(['serve', '--port', '0', '--no-popups', '--data-dir', tempFolder(), '--host', '0.0.0.0'], { env });
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { out, stop: () => (child.kill('SIGTERM'), exited) };
}

describe('and takes the values it documents, in any case', () => {
  it('CRONBEAT_LOG_LEVEL=WARN and CRONBEAT_TRUST_PROXY=On start the agent, trusting the proxy', async () => {
    const agent = serveAll({ CRONBEAT_LOG_LEVEL: 'WARN', CRONBEAT_TRUST_PROXY: 'On' });
    await expect.poll(() => agent.out.stderr).toMatch(/Warning: --trust-proxy while listening beyond this machine/);
    expect(await agent.stop()).toBe(0);
  });

  it('CRONBEAT_TRUST_PROXY=off starts the agent without trusting it', async () => {
    const agent = serveAll({ CRONBEAT_TRUST_PROXY: 'off' });
    await expect.poll(() => agent.out.stdout).toMatch(/^Cronbeat listening on /);
    expect(await agent.stop()).toBe(0);
    expect(agent.out.stderr).not.toMatch(/trust-proxy/);
  });
});
