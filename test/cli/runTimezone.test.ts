import { describe, expect, it } from 'vitest';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat run --timezone Paris` said only "is not a time zone (e.g. Europe/Paris or UTC)" while
 * `cronbeat monitor edit --timezone Paris` asked "did you mean Europe/Paris?": both now say what
 * the API says, and the job still runs.
 */
describe('a zone a person typed on a job line', () => {
  it.each(['Paris', 'UTC+2'])('run --timezone %s suggests as monitor edit does', async (typed) => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCli(['run', '--name', 'nightly', '--schedule', '0 3 * * *', '--timezone', typed, '--url', url, '--', 'sh', '-c', 'echo ran'], {
      env: { CRONBEAT_API_TOKEN: 'cbp_unused', CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('ran');
    const edit = await runCli(['monitor', 'edit', 'nightly', '--timezone', typed, '--url', url], { env: { CRONBEAT_API_TOKEN: 'cbp_unused' } });
    expect(edit.status).toBe(2);
    const said = /--timezone: (.*)$/m.exec(edit.stderr)![1];
    expect(said).toMatch(typed === 'Paris' ? /did you mean Europe\/Paris\?/ : /UTC\+2 is Etc\/GMT-2 in the zone database/);
    expect(run.stderr).toContain(`--timezone: ${said}`);
  });
});
