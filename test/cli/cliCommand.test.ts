import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliCommandFor, cliFactsOfThisProcess } from '../../agent/api/present/cliCommand';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { CLI, cleanEnv, finished, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

const facts = { bundle: '/opt/cb/dist/cronbeat.cjs', cronbeatOnPath: null, cronFindsIt: true, nodeOnPath: '/usr/bin/node', execPath: '/usr/local/bin/node', inElectron: false };

describe('how the dashboard names the CLI', () => {
  it('says plain cronbeat only when the PATH one is this installation', () => {
    expect(cliCommandFor({ ...facts, cronbeatOnPath: '/opt/cb/dist/cronbeat.cjs' })).toEqual({ command: 'cronbeat', on_path: true });
    expect(cliCommandFor({ ...facts, cronbeatOnPath: '/usr/lib/node_modules/other/cronbeat.cjs' }).command).toBe('/usr/local/bin/node /opt/cb/dist/cronbeat.cjs');
  });

  it('runs the bundle with this node, or the PATH node under Electron, or Electron as node', () => {
    expect(cliCommandFor(facts).command).toBe('/usr/local/bin/node /opt/cb/dist/cronbeat.cjs');
    expect(cliCommandFor({ ...facts, inElectron: true, execPath: '/opt/Cronbeat/cronbeat-desktop' }).command).toBe('/usr/bin/node /opt/cb/dist/cronbeat.cjs');
    expect(cliCommandFor({ ...facts, inElectron: true, nodeOnPath: null, execPath: '/opt/Cronbeat/cronbeat-desktop' }).command).toBe(
      'ELECTRON_RUN_AS_NODE=1 /opt/Cronbeat/cronbeat-desktop /opt/cb/dist/cronbeat.cjs',
    );
    const installed = { ...facts, inElectron: true, execPath: '/opt/Cronbeat/cronbeat-desktop', bundle: '/opt/Cronbeat/resources/app.asar/dist/cronbeat.cjs' };
    expect(cliCommandFor(installed).command).toBe('ELECTRON_RUN_AS_NODE=1 /opt/Cronbeat/cronbeat-desktop /opt/Cronbeat/resources/app.asar/dist/cronbeat.cjs');
    expect(cliCommandFor({ ...facts, bundle: '/home/me/My Code/dist/cronbeat.cjs' }).command).toBe("/usr/local/bin/node '/home/me/My Code/dist/cronbeat.cjs'");
  });

  it('finds a linked cronbeat on the PATH (npm link) as this installation, where cron finds it too', () => {
    const bin = tempFolder();
    chmodSync(CLI, 0o755); // as npm link leaves it
    symlinkSync(CLI, join(bin, 'cronbeat'));
    expect(cliCommandFor(cliFactsOfThisProcess(`${bin}:/usr/bin:/bin`, `${bin}:/usr/bin:/bin`))).toEqual({ command: 'cronbeat', on_path: true });
    const empty = tempFolder();
    mkdirSync(join(empty, 'bin'));
    expect(cliCommandFor(cliFactsOfThisProcess(join(empty, 'bin'))).on_path).toBe(false);
  });
});

describe('a cronbeat on the PATH that cron does not reach', () => {
  it('(npm link under nvm, or into /usr/local/bin) is named by its full path, and that line runs with cron\'s PATH', async () => {
    // npm's bin folder of an nvm Node: on a login shell's PATH, not on the one cron gives jobs.
    const nvmBin = join(tempFolder(), '.nvm', 'versions', 'node', 'v20.20.2', 'bin');
    mkdirSync(nvmBin, { recursive: true });
    chmodSync(CLI, 0o755);
    symlinkSync(CLI, join(nvmBin, 'cronbeat'));
    const cli = cliCommandFor(cliFactsOfThisProcess(`${nvmBin}:/usr/bin:/bin`));
    expect(cli).toEqual({ command: `${process.execPath} ${CLI}`, on_path: false });
    // Cron reaches a cronbeat but no node for its `#!/usr/bin/env node`: the full path too.
    expect(cliCommandFor(cliFactsOfThisProcess(`${nvmBin}:/usr/bin:/bin`, nvmBin)).on_path).toBe(false);

    const shell = spawn('/bin/sh', ['-c', `${cli.command} --version`], { env: cleanEnv({ PATH: '/usr/bin:/bin' }), stdio: ['pipe', 'pipe', 'pipe'] });
    expect(await finished(shell)).toMatchObject({ status: 0, stderr: '' });
  });
});

describe('GET /api/cli and the line it makes', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.stop());

  it('needs a token', async () => {
    expect((await agent.api('/api/cli', { token: null })).status).toBe(401);
  });

  it('hands out a `cronbeat run` line that works as copied in a shell with cron\'s PATH', async () => {
    const cli = await (await agent.api('/api/cli')).json();
    expect(cli).toEqual({ command: `${process.execPath} ${CLI}`, on_path: false });
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'copied', schedule: '@hourly', timezone: 'UTC', duration: 5 } })).json();
    const line = `${cli.command} run --url ${agent.url} ${monitor.token} -- true`;
    const shell = spawn('/bin/sh', ['-c', line], { env: cleanEnv({ PATH: '/usr/bin:/bin', CRONBEAT_DATA_DIR: tempFolder() }), stdio: ['pipe', 'pipe', 'pipe'] });
    const result = await finished(shell);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const pulses = await (await agent.api(`/api/monitors/${monitor.id}/pulses`)).json();
    expect(pulses.data.map((p: { kind: string }) => p.kind).sort()).toEqual(['start', 'success']);
  });
});
