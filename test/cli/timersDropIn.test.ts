import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real agent, real CLI processes: several seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const { agent: testAgent, shimDir } = discoverAgent();
chmodSync(shimDir, 0o755);

/** An Exec= line's words as systemd reads them (quotes, backslash escapes, then `$$` → `$` when it runs). */
function execWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      word += line[++i];
      started = true;
    } else if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (c === ' ' && !quoted) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words.map((w) => w.replace(/\$\$/g, '$').replace(/%%/g, '%'));
}

/** Runs one of the drop-in's commands as systemd would, with the environment it gives ExecStopPost= (the agent runs in this process: not spawnSync). */
function runAsSystemd(conf: string, key: 'ExecStartPre' | 'ExecStopPost', env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const line = new RegExp(`^${key}=-(.*)$`, 'm').exec(conf)![1]!;
  const [program, ...args] = execWords(line);
  const child = spawn(program!, args, { env: { PATH: '/usr/bin:/bin', INVOCATION_ID: 'b1d2c3e4f5a60718293a4b5c6d7e8f90', ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

describe('the drop-in timers discover writes', () => {
  it('pulses a start before the service and its result after, and never fails the service when Cronbeat is gone', async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = join(root, 'usr/lib/systemd/system');
    mkdirSync(join(root, 'etc/systemd/system/timers.target.wants'), { recursive: true });
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'report.timer'), '[Timer]\nOnCalendar=*-*-* 06:00\n');
    writeFileSync(join(lib, 'report.service'), '[Service]\nType=oneshot\nExecStart=/bin/false\n');
    writeFileSync(join(root, 'etc/systemd/system/timers.target.wants/report.timer'), '[Timer]\nOnCalendar=*-*-* 06:00\n');
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: shimDir };
    const result = await runCli(['timers', 'discover', '--root', root], { env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const conf = readFileSync(join(root, 'etc/systemd/system/report.service.d/cronbeat.conf'), 'utf8');
    const monitor = ((await (await testAgent().api('/api/monitors')).json()) as Array<{ id: number; name: string }>).find((m) => m.name === 'report.timer')!;
    const data = tempFolder();

    expect((await runAsSystemd(conf, 'ExecStartPre', { CRONBEAT_DATA_DIR: data })).status).toBe(0);
    const stop = await runAsSystemd(conf, 'ExecStopPost', { CRONBEAT_DATA_DIR: data, SERVICE_RESULT: 'exit-code', EXIT_CODE: 'exited', EXIT_STATUS: '3' });
    expect(stop.status).toBe(0);
    const pulses = (await (await testAgent().api(`/api/monitors/${monitor.id}/pulses`)).json()) as { data: Array<{ kind: string; exit_code: number | null; rid: string | null; body: string | null }> };
    expect(pulses.data.map((p) => [p.kind, p.exit_code, p.rid])).toEqual([
      ['fail', 3, 'b1d2c3e4f5a60718293a4b5c6d7e8f90'],
      ['start', null, 'b1d2c3e4f5a60718293a4b5c6d7e8f90'],
    ]);
    expect(pulses.data[0]!.body).toBe('systemd: exit-code (exited 3)');

    // A signal is a failure whatever its number; a success is 0.
    await runAsSystemd(conf, 'ExecStopPost', { CRONBEAT_DATA_DIR: data, SERVICE_RESULT: 'signal', EXIT_CODE: 'killed', EXIT_STATUS: 'TERM' });
    await runAsSystemd(conf, 'ExecStopPost', { CRONBEAT_DATA_DIR: data, SERVICE_RESULT: 'success', EXIT_CODE: 'exited', EXIT_STATUS: '0' });
    const later = (await (await testAgent().api(`/api/monitors/${monitor.id}/pulses`)).json()) as { data: Array<{ kind: string; exit_code: number | null }> };
    expect(later.data.slice(0, 2).map((p) => [p.kind, p.exit_code])).toEqual([
      ['success', 0],
      ['fail', 1],
    ]);

    // An agent that takes the connection and never answers: the start pulse waits in the spool
    // after one try, so the service starts within seconds (all its tries took over 16 s).
    const hung = createServer(() => {});
    await new Promise<void>((done) => hung.listen(0, '127.0.0.1', done));
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const slow = conf.replaceAll(testAgent().url, hungUrl);
    const hungData = tempFolder();
    const began = performance.now();
    expect((await runAsSystemd(slow, 'ExecStartPre', { CRONBEAT_DATA_DIR: hungData })).status).toBe(0);
    expect(performance.now() - began).toBeLessThan(12_000);
    hung.close();
    const waiting = await runCli(['spool', 'list', '--json', '--data-dir', hungData]);
    expect((JSON.parse(waiting.stdout) as Array<{ kind?: string; signal?: string }>).length).toBe(1);

    // Cronbeat's entry point gone: both commands still succeed, without a word.
    const gone = conf.replaceAll(join(shimDir, 'cronbeat'), join(shimDir, 'missing'));
    for (const key of ['ExecStartPre', 'ExecStopPost'] as const) {
      const run = await runAsSystemd(gone, key, { SERVICE_RESULT: 'success', EXIT_CODE: 'exited', EXIT_STATUS: '0' });
      expect([run.status, run.stderr]).toEqual([0, '']);
    }
  });
});
