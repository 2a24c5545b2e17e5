import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';
import { runCli } from '../helpers/cli';
import Database from 'better-sqlite3';
import { databaseFile } from '../../agent/dataFolder/dataDir';

// Every test starts real node processes.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token };
});
afterAll(() => agent.stop());

describe('cronbeat monitor', () => {
  it('lists monitors as a table and as JSON, filtered by status', async () => {
    const monitor = await createMonitor(agent, 'cli list job');
    const table = await runCli(['monitor', 'list'], { env });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+STATUS\s+SCHEDULE\s+NEXT DUE\s+LAST PULSE/);
    expect(table.stdout).toMatch(new RegExp(`${monitor.id}\\s+cli list job\\s+new\\s+\\* \\* \\* \\* \\* UTC\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+never`));
    const json = JSON.parse((await runCli(['monitor', 'list', '--json', '--status', 'new'], { env })).stdout);
    expect(json.map((m: { id: number }) => m.id)).toContain(monitor.id);
    expect(JSON.parse((await runCli(['monitor', 'list', '--json', '--status', 'paused'], { env })).stdout)).toEqual([]);
  });

  it('a name with a line break or a terminal escape stays on its row as visible text (list and show)', async () => {
    const hostile = 'two\nlines \u001b[2J\u001b[31mred\u0007';
    const response = await agent.api('/api/monitors', { method: 'POST', json: { name: 'plain', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags: ['hostile'] } });
    const { id } = await response.json();
    // The API refuses such a name now; a database from before may still hold one.
    const db = new Database(databaseFile(agent.dataDir));
    db.prepare('UPDATE monitors SET name = ? WHERE id = ?').run(hostile, id);
    db.close();
    const table = await runCli(['monitor', 'list', '--tag', 'hostile'], { env });
    expect(table.status).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('two\\nlines \\u001b[2J\\u001b[31mred\\u0007');
    const shown = await runCli(['monitor', 'show', String(id)], { env });
    expect(shown.stdout).toContain('Monitor:    two\\nlines \\u001b[2J\\u001b[31mred\\u0007 (id');
    // eslint-disable-next-line no-control-regex -- the test looks for control bytes
    for (const output of [table.stdout, shown.stdout]) expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it('list --tag keeps the monitors with that tag, and shows each one\'s tags', async () => {
    const tagged = await createMonitor(agent, 'cli tagged job');
    await agent.api(`/api/monitors/${tagged.id}`, { method: 'PATCH', json: { tags: ['prod', 'server:web-01'] } });
    const table = await runCli(['monitor', 'list', '--tag', 'server:web-01'], { env });
    expect(table.status).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/cli tagged job.*prod server:web-01$/);
    expect((await runCli(['monitor', 'list', '--tag', 'nothing-here'], { env })).stdout).toBe('No monitor matches.\n');
    const wrong = await runCli(['monitor', 'list', '--tag', 'has space'], { env });
    expect(wrong.status).toBe(2);
  });

  it('shows, pauses for a while, resumes and edits a monitor named by id or name, keeping its token', async () => {
    const monitor = await createMonitor(agent, 'cli nightly');
    const shown = await runCli(['monitor', 'show', 'cli nightly'], { env });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`Monitor:    cli nightly (id ${monitor.id})`);
    expect(shown.stdout).toContain('Last pulse: never');

    const paused = await runCli(['monitor', 'pause', String(monitor.id), '--for', '2h'], { env });
    expect(paused).toMatchObject({ status: 0, stderr: '' });
    expect(paused.stdout).toMatch(/^Paused "cli nightly" until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/m);
    const pausedJson = JSON.parse((await runCli(['monitor', 'show', String(monitor.id), '--json'], { env })).stdout);
    expect(pausedJson.status).toBe('paused');
    expect(Date.parse(pausedJson.paused_until) - Date.now()).toBeGreaterThan(115 * 60_000);

    const resumed = await runCli(['monitor', 'resume', 'cli nightly'], { env });
    expect(resumed.stdout).toMatch(/^Resumed "cli nightly": next due \d{4}/);

    const edited = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', '30 2 * * *', '--duration', '45', '--json'], { env });
    expect(edited.status).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ schedule: '30 2 * * *', duration: 45, token: monitor.token });
  });

  it('refuses a number that is one monitor\'s id and another\'s name, changing nothing; #ID names the id alone', async () => {
    const byId = await createMonitor(agent, 'reports');
    const named = await createMonitor(agent, String(byId.id));
    const ambiguous = await runCli(['monitor', 'pause', String(byId.id)], { env });
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toBe(
      `cronbeat: "${byId.id}" is the id of "reports" and the name of monitor ${named.id}: say #${byId.id} for the one, #${named.id} for the other.\n`,
    );
    const shown = async (id: number) => (await (await agent.api(`/api/monitors/${id}`)).json()).status;
    expect([await shown(byId.id), await shown(named.id)]).toEqual(['new', 'new']);
    expect((await runCli(['monitor', 'pause', `#${named.id}`], { env })).status).toBe(0);
    expect([await shown(byId.id), await shown(named.id)]).toEqual(['new', 'paused']);
    expect((await runCli(['monitor', 'show', '#999999'], { env })).stderr).toMatch(/^cronbeat: No monitor has the id 999999\./);
  });

  it('takes a systemd calendar event of two lines and a period, and shows each in words beside it', async () => {
    const monitor = await createMonitor(agent, 'cli timer');
    const edited = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', 'Mon..Fri 02:30\nSat 04:00 UTC'], { env });
    expect(edited.status).toBe(0);
    const shown = await runCli(['monitor', 'show', String(monitor.id)], { env });
    expect(shown.stdout).toContain('Mon..Fri 02:30; Sat 04:00 UTC (at 02:30 UTC, Monday through Friday; at 04:00 UTC, on Saturday)');

    await runCli(['monitor', 'edit', String(monitor.id), '--schedule', '@every 90m'], { env });
    expect((await runCli(['monitor', 'show', String(monitor.id)], { env })).stdout).toContain('@every 90m (every 90 minutes, counted from the last run)');

    const refused = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', 'Mon..Fri 25:00'], { env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The hour is 25, but hours go from 0 to 23.');
  });

  it('exits 1 naming the field when the API refuses an edit, and 2 for wrong usage, changing nothing', async () => {
    const monitor = await createMonitor(agent, 'cli refused');
    const bad = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', '0 25 * * *'], { env });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^cronbeat: .*422 The schedule field is not valid/);
    for (const args of [
      ['monitor'],
      ['monitor', 'stop', '1'],
      ['monitor', 'edit', String(monitor.id)],
      ['monitor', 'pause', String(monitor.id), '--for', 'soon'],
      ['monitor', 'list', '--status', 'down'],
      ['monitor', 'list', '--colour'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await runCli(['monitor', 'show', 'no such monitor'], { env })).status).toBe(1);
    const noToken = await runCli(['monitor', 'list'], { env: { CRONBEAT_URL: agent.url } });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain('CRONBEAT_API_TOKEN');
    expect((await agent.api(`/api/monitors/${monitor.id}`).then((r) => r.json())).schedule).toBe('* * * * *');
  });
});
