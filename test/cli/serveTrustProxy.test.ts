import { createInterface } from 'node:readline';
import { describe, expect, it, vi } from 'vitest';
import { spawnCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

const WARNING = /^Warning: --trust-proxy while listening beyond this machine/;

/** Runs `cronbeat serve ARGS --port 0` until it listens, stops it, and returns its stderr lines that are not log lines. */
async function serveStderr(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const child = spawnCli(['serve', '--port', '0', '--no-popups', '--data-dir', tempFolder(), ...args], { env });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // 'close', not 'exit': stderr is read to its end only by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('Cronbeat listening on ') && resolve());
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
}

describe('cronbeat serve --trust-proxy', () => {
  it('warns in one line on stderr when it listens on every address (0.0.0.0, ::)', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const lines = await serveStderr(['--host', host, '--trust-proxy']);
      expect(lines.filter((line) => WARNING.test(line))).toHaveLength(1);
    }
    const fromEnvironment = await serveStderr(['--host', '0.0.0.0'], { CRONBEAT_TRUST_PROXY: '1' });
    expect(fromEnvironment.filter((line) => WARNING.test(line))).toHaveLength(1);
  });

  it('says nothing of the proxy on loopback, or without --trust-proxy', async () => {
    expect((await serveStderr(['--host', '127.0.0.1', '--trust-proxy'])).filter((line) => WARNING.test(line))).toEqual([]);
    expect((await serveStderr(['--host', '0.0.0.0'])).filter((line) => WARNING.test(line))).toEqual([]);
  });
});
