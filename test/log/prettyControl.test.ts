import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/*
 * A log line can quote what came from outside (a receiver's error text, a job's output); pretty
 * lines go to a person's terminal (`cronbeat serve` in a shell), so they carry no control
 * character that would act on it. JSON lines are escaped by JSON.
 */

const ROOT = join(import.meta.dirname, '..', '..');

it('a pretty line writes control characters out, and keeps the text', () => {
  const script = `
    const { createLogger, pinoLog } = require('./agent/log/logger.ts');
    pinoLog(createLogger({ pretty: true }))('Delivery 7: the receiver said \\u001b]52;c;aGk=\\u0007\\u001b[2J\\u009b31m done', { level: 'warn' });
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toContain('Delivery 7: the receiver said \\u001b]52;c;aGk=\\u0007\\u001b[2J\\u009b31m done');
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
});
