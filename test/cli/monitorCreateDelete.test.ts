import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runCli, tempFolder } from '../helpers/cli';

// Every test starts real node processes.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'Europe/Berlin' };
});
afterAll(() => agent.stop());

describe('cronbeat monitor create, delete and edit --tags', () => {
  it('creates a monitor with the options of run --name and prints it with its run line', async () => {
    const made = await runCli(['monitor', 'create', 'cli created', '--schedule', '*/10 * * * *', '--tags', 'prod,DB', '--server', 'web-01'], { env });
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toContain('Created "cli created".');
    // The machine's zone and the schedule's own period, as `run --name` takes them.
    expect(made.stdout).toMatch(/^Schedule: +\*\/10 \* \* \* \* \(.*\)$/m);
    expect(made.stdout).toMatch(/^Grace: +10 min after each due time$/m);
    expect(made.stdout).toMatch(/^Tags: +db prod server:web-01$/m);
    const token = /cronbeat run (\S+) -- \/path\/to\/your\/job\.sh/.exec(made.stdout)?.[1];
    expect(token).toBeDefined();
    const [monitor] = (await (await agent.api('/api/monitors')).json()).filter((m: { name: string }) => m.name === 'cli created');
    expect(monitor).toMatchObject({ token, timezone: 'Europe/Berlin', duration: 10, tags: ['db', 'prod', 'server:web-01'] });
  });

  it('prints what runs the job in the form its schedule needs: a crontab line only for cron', async () => {
    // A calendar event is no crontab schedule: a systemd timer, each event in the monitor's zone unless it names one.
    const calendar = await runCli(['monitor', 'create', 'cli calendar', '--schedule', 'Mon..Fri 02:30\nSat *-*-* 04:00 UTC', '--timezone', 'America/New_York'], { env });
    expect(calendar.status).toBe(0);
    expect(calendar.stdout).not.toContain('Its crontab line');
    const units = calendar.stdout.slice(calendar.stdout.indexOf('Its systemd timer'));
    expect(units).toContain('  OnCalendar=Mon..Fri 02:30 America/New_York\n  OnCalendar=Sat *-*-* 04:00 UTC\n');
    const timer = units.slice(units.indexOf('[Timer]'), units.indexOf('  # the .service')).replace(/^ {2}/gm, '');
    const service = units.slice(units.indexOf('[Service]')).replace(/^ {2}/gm, '');
    expect(service).toMatch(/^\[Service\]\nExecStart=cronbeat run \S+ -- \/path\/to\/your\/job\.sh\nKillMode=mixed\n$/);
    if (spawnSync('systemd-analyze', ['--version']).status === 0) {
      const dir = tempFolder('cronbeat-create-units-');
      writeFileSync(join(dir, 'job.timer'), timer);
      // Node and the built CLI in place of the `cronbeat` on the admin's PATH, which systemd looks for
      // (the bundle itself is executable only once npm links it).
      writeFileSync(join(dir, 'job.service'), service.replace('ExecStart=cronbeat ', `ExecStart=${process.execPath} ${CLI} `));
      const verified = spawnSync('systemd-analyze', ['verify', join(dir, 'job.timer'), join(dir, 'job.service')], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: tempFolder('cronbeat-runtime-'), SYSTEMD_LOG_LEVEL: 'warning' },
      });
      expect(`${verified.stdout}${verified.stderr}`.trim()).toBe('');
      expect(verified.status).toBe(0);
    }

    // A period: the wrapped command, for whatever starts the job that often.
    const period = await runCli(['monitor', 'create', 'cli period', '--schedule', '@every 90m'], { env });
    expect(period.stdout).toMatch(/Start the job through this, every 90 minutes, counted from the last run .*\n {2}cronbeat run \S+ -- \/path\/to\/your\/job\.sh\n$/);
    expect(period.stdout).not.toContain('Its crontab line');

    // Cron in another zone than this machine's: the line, and what makes cron read it in that zone.
    const elsewhere = await runCli(['monitor', 'create', 'cli elsewhere', '--schedule', '0 3 * * *', '--timezone', 'Asia/Tokyo'], { env });
    expect(elsewhere.stdout).toMatch(/Its crontab line .*\n {2}0 3 \* \* \* cronbeat run \S+ -- \/path\/to\/your\/job\.sh\n {2}\(cron runs a line on its own clock, Europe\/Berlin here, unless CRON_TZ=Asia\/Tokyo comes before it; cronie reads CRON_TZ\)\n$/);
    const here = await runCli(['monitor', 'create', 'cli here', '--schedule', '0 3 * * *'], { env });
    expect(here.stdout).not.toContain('CRON_TZ');
  });

  it('names the grace when it is 0, and refuses a create without a schedule, in words', async () => {
    const zero = await runCli(['monitor', 'create', 'cli zero', '--schedule', '0 3 * * *', '--grace', '0'], { env });
    expect(zero.status).toBe(2);
    expect(zero.stderr).toMatch(/--grace \(the minutes a run may be late\) must be a whole number of minutes from 1/);
    expect(zero.stderr).not.toContain('duration');
    const editZero = await runCli(['monitor', 'edit', 'cli created', '--grace', '0'], { env });
    expect(editZero.status).toBe(2);
    expect(editZero.stderr).toMatch(/--grace \(the minutes a run may be late\)/);
    const bare = await runCli(['monitor', 'create', 'cli bare'], { env });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('--schedule');
  });

  it('edit --tags sets the whole list', async () => {
    await runCli(['monitor', 'create', 'cli retag', '--schedule', '0 3 * * *', '--tags', 'old'], { env });
    const edited = await runCli(['monitor', 'edit', 'cli retag', '--tags', 'a,b', '--json'], { env });
    expect(edited.status).toBe(0);
    expect(JSON.parse(edited.stdout).tags).toEqual(['a', 'b']);
    const bad = await runCli(['monitor', 'edit', 'cli retag', '--tags', 'a,has space'], { env });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('"has space" is not a tag');
  });

  it('delete refuses without --yes, in words, and deletes with it', async () => {
    await runCli(['monitor', 'create', 'cli doomed', '--schedule', '0 3 * * *'], { env });
    const refused = await runCli(['monitor', 'delete', 'cli doomed'], { env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Deleting "cli doomed" \(id \d+\) removes it and its whole history.*Add --yes/);
    expect((await agent.api('/api/monitors')).ok).toBe(true);
    const names = async () => (await (await agent.api('/api/monitors')).json()).map((m: { name: string }) => m.name);
    expect(await names()).toContain('cli doomed');
    const deleted = await runCli(['monitor', 'delete', 'cli doomed', '--yes'], { env });
    expect(deleted).toMatchObject({ status: 0, stderr: '' });
    expect(deleted.stdout).toMatch(/^Deleted "cli doomed" \(id \d+\)\.$/m);
    expect(await names()).not.toContain('cli doomed');
  });
});

describe('did you mean, for every command', () => {
  it('a misspelt option is answered in our words with the option it is closest to', async () => {
    const edit = await runCli(['monitor', 'edit', 'x', '--schedul', '0 3 * * *'], { env });
    expect(edit.status).toBe(2);
    expect(edit.stderr).toBe('cronbeat: cronbeat monitor edit has no option --schedul. Did you mean --schedule?\n');
    const create = await runCli(['monitor', 'create', 'x', '--tag', 'a'], { env });
    expect(create.stderr).toContain('has no option --tag. Did you mean --tags?');
    const crontab = await runCli(['crontab', 'scan', '--fil', 'x'], { env });
    expect(crontab.status).toBe(2);
    expect(crontab.stderr).toContain('cronbeat crontab scan has no option --fil. Did you mean --file');
    const token = await runCli(['token', 'list', '--jsno'], { env });
    expect(token.stderr).toContain('Did you mean --json?');
    const missing = await runCli(['monitor', 'edit', 'x', '--name'], { env });
    expect(missing.stderr).toBe('cronbeat: --name needs a value: --name VALUE (or --name=VALUE).\n');
    expect(missing.stderr).not.toMatch(/argument missing|Unknown option/);
    // A value that starts with "-" is an option to node's parser: said so, not "takes no value".
    const negative = await runCli(['token', 'limit', '1', '--max-monitors', '-5'], { env });
    expect(negative.stderr).toBe('cronbeat: --max-monitors needs a value; one that starts with "-" goes as --max-monitors=VALUE.\n');
    // A stray word, where no command takes one: no hint about schedules backup has none of.
    const stray = await runCli(['backup', '/tmp/copy.db'], { env });
    expect(stray.stderr).toBe('cronbeat: cronbeat backup takes no "/tmp/copy.db". See `cronbeat backup --help`.\n');
  });

  it('a misspelt sub-command is answered with the one it is closest to', async () => {
    const crontab = await runCli(['crontab', 'dicsover'], { env });
    expect(crontab.status).toBe(2);
    expect(crontab.stderr).toContain('"dicsover" is not a sub-command of cronbeat crontab (scan, discover, watch). Did you mean "discover"?');
    expect((await runCli(['token', 'craete'], { env })).stderr).toContain('Did you mean "create"?');
    expect((await runCli(['monitor', 'delte', 'x'], { env })).stderr).toContain('Did you mean "delete"?');
  });

  it('cronbeat run still runs its job on a misspelt option, and suggests the right one', async () => {
    const run = await runCli(['run', '--name', 'x', '--schedul', '0 3 * * *', '--', 'sh', '-c', 'echo ran'], { env: { ...env, CRONBEAT_API_TOKEN: '' } });
    expect(run.stdout).toContain('ran');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('did you mean --schedule?');
  });
});

describe('errors in words from the CLI', () => {
  it('an https:// --url whose agent speaks plain http says so, with the http:// URL to use', async () => {
    const https = agent.url.replace(/^http:/, 'https:');
    const list = await runCli(['monitor', 'list', '--url', https], { env });
    expect(list.status).toBe(1);
    expect(list.stderr).toContain(`the server at ${https} speaks plain http, not https: use ${agent.url}/`);
    expect(list.stderr).not.toContain('cannot reach');
  });
});
