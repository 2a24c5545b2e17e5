import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { cleanEnv, runCli, tempFolder } from '../helpers/cli';
import { jobsOf, parseCrontab } from '../../agent/cli/crontab/parse';
import { ownCrontabLine } from '../../agent/cli/crontab/ownLine';

vi.setConfig({ testTimeout: 60_000 });

// As crontab.test.ts: the entry point goes in a folder of its own, not a temporary one.
const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent.stop();
  rmSync(shimDir, { recursive: true, force: true });
});

/** A stand-in `crontab` first on PATH, keeping the user's crontab in a file (cron is not installed here). */
function fakeCrontab(folder: string): { PATH: string; CRONTAB_FILE: string } {
  const bin = join(folder, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'crontab'),
    '#!/bin/sh\ncase "$1" in\n  -l) [ -f "$CRONTAB_FILE" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$CRONTAB_FILE" ;;\n  -) cat > "$CRONTAB_FILE" ;;\nesac\n',
    { mode: 0o755 },
  );
  return { PATH: `${bin}:${process.env.PATH}`, CRONTAB_FILE: join(folder, 'user-crontab') };
}

/** Runs a job line of the crontab as cron would: its command through sh, with the crontab's variables. */
async function cronRuns(crontabFile: string, lineNumber: number, env: Record<string, string>) {
  const lines = parseCrontab(readFileSync(crontabFile, 'utf8'), 'user');
  const variables = Object.fromEntries(lines.flatMap((l) => (l.kind === 'env' ? [[l.name, l.value]] : [])));
  const job = jobsOf(lines).find((j) => j.line === lineNumber)!;
  const { stdout } = await promisify(execFile)('/bin/sh', ['-c', job.shellCommand], { env: cleanEnv({ ...env, ...variables }) });
  return stdout;
}

describe('crontab discover --by-name', () => {
  it('writes lines that make their own monitors, with a new ping key in the crontab, and an edited schedule moves the monitor', async () => {
    const folder = tempFolder();
    const fake = fakeCrontab(folder);
    const env = { ...fake, CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir };
    writeFileSync(fake.CRONTAB_FILE, '# mine\nCRON_TZ=Europe/Paris\n*/10 * * * * echo polled\n');
    const before = agent.store.monitors.list(1).length;

    const dry = await runCli(['crontab', 'discover', '--by-name', '--dry-run'], { env });
    expect(dry.stdout).toMatch(/CRONBEAT_API_TOKEN=<a new ping key>/);
    expect(dry.stdout).toMatch(/run --url \S+ --name=echo-polled -- "\$@"; exec "\$@"/);

    const discovered = await runCli(['crontab', 'discover', '--by-name'], { env: { ...env, CRONBEAT_API_TOKEN: agent.token } });
    expect(discovered.stderr).toBe('');
    expect(discovered.status).toBe(0);
    expect(agent.store.monitors.list(1)).toHaveLength(before); // nothing made until the line runs
    const written = readFileSync(fake.CRONTAB_FILE, 'utf8');
    const key = /^CRONBEAT_API_TOKEN=(cb_\S+)$/m.exec(written)?.[1];
    expect(key).toBeDefined();
    expect(written).not.toContain(agent.token);
    expect(agent.store.apiTokens.authenticate(key!, Date.now())?.scope).toBe('ping');
    const jobLine = jobsOf(parseCrontab(written, 'user'))[0].line;

    // Cron runs the line: its monitor is made from the line's own schedule and CRON_TZ.
    const runEnv = { PATH: fake.PATH, CRONTAB_FILE: fake.CRONTAB_FILE, CRONBEAT_DATA_DIR: join(folder, 'job') };
    expect(await cronRuns(fake.CRONTAB_FILE, jobLine, runEnv)).toBe('polled\n');
    const [monitor] = agent.store.monitors.list(1).filter((m) => m.slug === 'echo-polled');
    expect(monitor).toMatchObject({ schedule: '*/10 * * * *', timezone: 'Europe/Paris', duration: 10 });

    // The admin edits the schedule in the crontab, and nothing else: the next run moves the monitor.
    writeFileSync(fake.CRONTAB_FILE, readFileSync(fake.CRONTAB_FILE, 'utf8').replace('*/10 * * * *', '*/15 * * * *'));
    await cronRuns(fake.CRONTAB_FILE, jobLine, runEnv);
    expect(agent.store.monitors.find(1, monitor.id)).toMatchObject({ schedule: '*/15 * * * *' });
    expect(agent.store.monitorLines.changes(monitor.id)[0]).toMatchObject({ source: 'line' });

    // A second discover leaves the line alone, and adds no second key.
    const again = await runCli(['crontab', 'discover', '--by-name'], { env: { ...env, CRONBEAT_API_TOKEN: agent.token } });
    expect(again.stdout).toMatch(/Nothing to do/);
    expect(readFileSync(fake.CRONTAB_FILE, 'utf8').match(/CRONBEAT_API_TOKEN=/g)).toHaveLength(1);
  });

  it('a line without --schedule finds its own crontab line, and says so when there is none', () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, 'CRON_TZ=Asia/Tokyo\n0 4 * * * /usr/local/lib/cronbeat/cronbeat run --name=db-dump -- /usr/bin/dump.sh\n');
    const source = { label: file, format: 'user' as const, owner: 'me', path: file };
    expect(ownCrontabLine('db-dump', [source])).toEqual({ schedule: '0 4 * * *', timezone: 'Asia/Tokyo' });
    expect(ownCrontabLine('other', [source])).toMatch(/no crontab line of this machine runs --name=other/);
  });
});
