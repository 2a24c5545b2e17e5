import { appendFileSync, chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * What crontab discover (and --undo) must leave exactly as it was: the lines it does not wrap,
 * the bytes around the ones it does, the file's owner, mode and symbolic link, and an edit made
 * while it ran. Real agent, real CLI processes.
 */

vi.setConfig({ testTimeout: 30_000 });

const { agent } = discoverAgent();
const isRoot = process.getuid?.() === 0;

function env(folder: string, url = agent().url): Record<string, string> {
  return { CRONBEAT_URL: url, CRONBEAT_API_TOKEN: agent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };
}

async function discoverAndUndo(file: string, folder: string): Promise<{ wrapped: string[] }> {
  const found = await runCli(['crontab', 'discover', '--file', file], { env: env(folder) });
  expect(found.stderr).toBe('');
  expect(found.status).toBe(0);
  const wrapped = readFileSync(file, 'latin1').split('\n');
  const undone = await runCli(['crontab', 'discover', '--undo', '--file', file], { env: env(folder) });
  expect(undone.stderr).toBe('');
  expect(undone.status).toBe(0);
  return { wrapped };
}

describe('crontab discover keeps what it does not own', () => {
  it('leaves lines written by hand around cronbeat run as they are, through discover and --undo', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const byHand = [
      '*/5 * * * * cd /srv && /usr/bin/cronbeat run tok_abc -- ./backup.sh',
      '*/5 * * * * /usr/bin/cronbeat run tok_def -- /usr/local/bin/backup.sh > /var/log/b.log 2>&1',
    ];
    const crontab = `${byHand.join('\n')}\n0 3 * * * /usr/local/bin/other.sh\n`;
    writeFileSync(file, crontab);
    const { wrapped } = await discoverAndUndo(file, folder);
    expect(wrapped.slice(0, 2)).toEqual(byHand);
    expect(wrapped[2]).toContain('set -- /usr/local/bin/other.sh;');
    expect(readFileSync(file, 'utf8')).toBe(crontab);
  });

  it('puts back trailing blanks byte for byte, and leaves alone a line cron sees with a carriage return or never reads', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = '0 1 * * * /usr/local/bin/a.sh  \t\n0 2 * * * echo hi  %in\n0 3 * * * /usr/local/bin/dos.sh\r\n0 4 * * * /usr/local/bin/last.sh';
    writeFileSync(file, crontab);
    const scan = await runCli(['crontab', 'scan', '--file', file, '--json'], { env: env(folder) });
    const rows = JSON.parse(scan.stdout) as Array<{ line: number; status: string; reason: string | null }>;
    expect(rows.map((row) => [row.line, row.status])).toEqual([[1, 'monitorable'], [2, 'monitorable'], [3, 'not monitorable'], [4, 'not monitorable']]);
    expect(rows[2]!.reason).toMatch(/carriage return/);
    expect(rows[3]!.reason).toMatch(/no newline at its end/);
    const { wrapped } = await discoverAndUndo(file, folder);
    expect(wrapped[2]).toBe('0 3 * * * /usr/local/bin/dos.sh\r');
    expect(wrapped[3]).toBe('0 4 * * * /usr/local/bin/last.sh');
    expect(readFileSync(file, 'utf8')).toBe(crontab);
  });

  it("leaves alone a line that, wrapped, would not fit the command Debian's cron reads, and makes no monitor for it", async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = `0 3 * * * /usr/local/bin/report.sh ${'alpha '.repeat(140)}\n`;
    writeFileSync(file, crontab);
    const before = ((await (await agent().api('/api/monitors')).json()) as unknown[]).length;
    const result = await runCli(['crontab', 'discover', '--file', file], { env: env(folder) });
    expect(result.stdout).toMatch(/Line 1 left alone: wrapped, its command would be \d+ bytes, more than the 999 Debian's cron reads \(it cuts the rest\)\./);
    expect(result.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(crontab);
    expect(((await (await agent().api('/api/monitors')).json()) as unknown[]).length).toBe(before);
  });

  it('keeps bytes that are not UTF-8 (a Latin-1 comment, a command) as they were', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = Buffer.from('# sauvegarde du caf\xe9\n0 3 * * * /usr/local/bin/backup.sh --label=\xe9t\xe9\n', 'latin1');
    writeFileSync(file, crontab);
    const { wrapped } = await discoverAndUndo(file, folder);
    expect(wrapped[0]).toBe('# sauvegarde du caf\xe9');
    expect(wrapped[1]).toContain("'/usr/local/bin/backup.sh --label=\xe9t\xe9'");
    expect(readFileSync(file)).toEqual(crontab);
  });
});

describe.skipIf(!isRoot)("crontab discover keeps a crontab's owner, mode and link", () => {
  it("keeps the owner and mode of a user's crontab that root rewrites (cron skips a file of the wrong owner)", async () => {
    const folder = tempFolder();
    const file = join(folder, 'nobody');
    writeFileSync(file, '0 3 * * * /usr/local/bin/backup.sh\n');
    chownSync(file, 65534, 65534);
    chmodSync(file, 0o640);
    const found = await runCli(['crontab', 'discover', '--file', file], { env: { ...env(folder), CRONBEAT_SHIM_DIR: process.env.CRONBEAT_SHIM_DIR! } });
    expect(found.status).toBe(0);
    const after = statSync(file);
    expect([after.uid, after.gid, after.mode & 0o7777]).toEqual([65534, 65534, 0o640]);
  });

  it('says in one line that a crontab it may not write is left as it is', async () => {
    const folder = tempFolder();
    chmodSync(folder, 0o755);
    const file = join(folder, 'crontab');
    const crontab = `0 3 * * * set -- /x; [ -r /s ] && [ -x /s ] && exec /s run ${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)} -- "$@"; exec "$@"\n`;
    writeFileSync(file, crontab, { mode: 0o644 });
    const data = tempFolder();
    chmodSync(data, 0o777);
    const undo = await runCli(['crontab', 'discover', '--undo', '--file', file], { env: { CRONBEAT_DATA_DIR: data }, user: { uid: 65534, gid: 65534 } });
    expect(undo.stderr).toBe(`cronbeat: cannot write in ${folder} (EACCES): nothing was changed. Run as the crontab's owner or as root.\n`);
    expect(undo.status).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(crontab);
  });

  it('writes through a symbolic link, which stays', async () => {
    const folder = tempFolder();
    mkdirSync(join(folder, 'app'));
    const target = join(folder, 'app', 'cron');
    writeFileSync(target, '0 3 * * * /usr/local/bin/backup.sh\n');
    mkdirSync(join(folder, 'cron.d'));
    const link = join(folder, 'cron.d', 'app');
    symlinkSync(target, link);
    const { wrapped } = await discoverAndUndo(link, folder);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(wrapped[0]).toContain('set -- /usr/local/bin/backup.sh;');
    expect(readFileSync(target, 'utf8')).toBe('0 3 * * * /usr/local/bin/backup.sh\n');
  });
});

describe('a crontab or unit folder that is not there', () => {
  it('is named in one line, with nothing done, when given by hand', async () => {
    const folder = tempFolder();
    const missing = join(folder, 'crontb');
    for (const args of [['crontab', 'discover', '--file', missing], ['crontab', 'discover', '--undo', '--file', missing], ['crontab', 'discover', '--by-name', '--file', missing]]) {
      const result = await runCli(args, { env: env(folder) });
      expect(result.stderr).toBe(`cronbeat: ${missing}: no such file.\n`);
      expect(result.status).toBe(2);
    }
    for (const args of [['timers', 'list', '--root', missing], ['timers', 'discover', '--root', missing, '--dry-run']]) {
      const result = await runCli(args, { env: env(folder) });
      expect(result.stderr).toBe(`cronbeat: --root ${missing}: no such folder.\n`);
      expect(result.status).toBe(2);
    }
  });
});

describe('crontab discover --by-name and who can read the key it writes', () => {
  it('puts no ping key in a crontab every user of the machine can read, and makes none; says who can read the tokens of lines', async () => {
    const folder = tempFolder();
    const file = join(folder, 'app');
    const crontab = '*/10 * * * * root echo polled\n';
    writeFileSync(file, crontab);
    chmodSync(file, 0o644); // as /etc/crontab and /etc/cron.d files are
    const keys = async () => ((await (await agent().api('/api/keys')).json()) as unknown[]).length;
    const before = await keys();
    const refused = await runCli(['crontab', 'discover', '--by-name', '--system-file', file], { env: env(folder) });
    expect(refused.stderr).toMatch(/^cronbeat: .* is readable by every user of this machine .*chmod 600 .*\n$/);
    expect(refused.status).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(crontab);
    expect(await keys()).toBe(before);

    // A monitor's token pulses that monitor only: discover writes it, and says who can read it.
    const tokens = await runCli(['crontab', 'discover', '--system-file', file], { env: env(folder) });
    expect(tokens.status).toBe(0);
    expect(tokens.stdout).toContain(`Note: every user of this machine can read ${file} (mode 0644), and with a line's token pulse its monitor as if the job ran. \`chmod 600 ${file}\` keeps the tokens to root`);
    expect((await runCli(['crontab', 'discover', '--undo', '--system-file', file], { env: env(folder) })).status).toBe(0);

    chmodSync(file, 0o600); // cron reads it as root all the same
    expect((await runCli(['crontab', 'discover', '--system-file', file], { env: env(folder) })).stdout).not.toContain('Note: every user');
    expect((await runCli(['crontab', 'discover', '--undo', '--system-file', file], { env: env(folder) })).status).toBe(0);
    const found = await runCli(['crontab', 'discover', '--by-name', '--system-file', file], { env: env(folder) });
    expect(found.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^CRONBEAT_API_TOKEN=\S+$/m);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('crontab discover --by-name and a long command', () => {
  it('names the line by the slug of its command, however long (the name cut with … gave none)', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, `0 3 * * * /usr/local/bin/report.sh ${'--section=alpha '.repeat(10)}\n`, { mode: 0o600 });
    const found = await runCli(['crontab', 'discover', '--by-name', '--file', file], { env: env(folder) });
    expect(found.stdout).toContain('Line 1: monitored by its name "usr-local-bin-report-sh-section-alpha-');
    expect(found.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/run --url \S+ --name=usr-local-bin-report-sh-section-alpha-[a-z0-9_-]+ -- "\$@"/);
  });
});

describe('crontab discover and an edit made while it runs', () => {
  let proxy: Server | undefined;
  afterAll(() => proxy?.close());

  it('writes nothing over a crontab edited while it made the monitors, and takes them again on the next run', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 3 * * * /usr/local/bin/backup.sh\n');
    const edit = '0 4 * * * /usr/local/bin/added-meanwhile.sh\n';
    // The agent, behind a proxy that edits the crontab as a monitor is made (as `crontab -e` would then).
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        if (req.method === 'POST' && req.url === '/api/monitors' && !readFileSync(file, 'utf8').includes(edit)) appendFileSync(file, edit);
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
        const answer = await fetch(`${agent().url}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((done) => proxy!.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const first = await runCli(['crontab', 'discover', '--file', file, '--url', url], { env: env(folder, url) });
    expect(first.status).toBe(1);
    expect(first.stderr).toMatch(/^cronbeat: .*crontab changed while discover ran.*nothing was written.*\n$/);
    expect(readFileSync(file, 'utf8')).toBe(`0 3 * * * /usr/local/bin/backup.sh\n${edit}`);

    const before = ((await (await agent().api('/api/monitors')).json()) as unknown[]).length;
    const again = await runCli(['crontab', 'discover', '--file', file], { env: env(folder) });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Line 1: the monitor an earlier discover made for it');
    expect(((await (await agent().api('/api/monitors')).json()) as unknown[]).length).toBe(before + 1);
    expect(readFileSync(file, 'utf8')).toContain('added-meanwhile.sh; [ -r ');
  });
});
