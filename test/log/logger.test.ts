import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/*
 * The agent's log (agent/log/logger.ts) in a real process: leveled JSON lines on stderr with the
 * same fields on every line, nothing on stdout; pretty lines when asked (a terminal).
 */

const ROOT = join(import.meta.dirname, '..', '..');

function runLogging(pretty: boolean, level?: string) {
  const script = `
    const { createLogger, pinoLog } = require('./agent/log/logger.ts');
    const log = pinoLog(createLogger({ pretty: ${pretty} }));
    log('Agent listening');
    log('Delivery 7: cannot record the result: disk full', { level: 'error', deliveryId: 7 });
    log('Monitor failed', { level: 'warn', monitorId: 3, reasonKind: 'late' });
    log('details', { level: 'debug' });
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CRONBEAT_LOG_LEVEL: level ?? '', NO_COLOR: '1' },
  });
}

it('writes leveled JSON lines to stderr, each with the monitor, delivery and reason fields', () => {
  const run = runLogging(false);
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n').map((line) => JSON.parse(line));
  expect(lines).toHaveLength(3); // debug is below the default level
  for (const line of lines) {
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['level', 'time', 'msg', 'monitor_id', 'delivery_id', 'reason_kind']));
  }
  expect(lines[0]).toMatchObject({ level: 30, msg: 'Agent listening', monitor_id: null, delivery_id: null, reason_kind: null });
  expect(lines[1]).toMatchObject({ level: 50, delivery_id: 7, monitor_id: null });
  expect(lines[2]).toMatchObject({ level: 40, monitor_id: 3, reason_kind: 'late' });
});

it('writes debug lines when CRONBEAT_LOG_LEVEL=debug', () => {
  const run = runLogging(false, 'debug');
  expect(run.stderr.trim().split('\n').map((line) => JSON.parse(line).msg)).toContain('details');
});

it('writes lines for a person when pretty (stderr is a terminal)', () => {
  const run = runLogging(true);
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/INFO.*Agent listening/);
  expect(run.stderr).toMatch(/ERROR.*Delivery 7: cannot record the result/);
  expect(run.stderr).toMatch(/delivery_id: 7/);
  expect(() => JSON.parse(run.stderr.split('\n')[0])).toThrow();
});
