import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { launchdPlist, systemdUnit, type ServiceSpec } from '../../agent/cli/service/units';
import { closedToOthers, volatilePlace } from '../../agent/cli/crontab/shim';
import { CLI, cleanEnv, finished, runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';
import { spawn } from 'node:child_process';
import { version } from '../../package.json';

/*
 * `cronbeat service`: the systemd unit and launchd plist it writes, checked by systemd-analyze
 * and xmllint; install, status and uninstall against a temporary root. systemd does not run
 * here, so enabling fails and the command must say what to run.
 */

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
/** A clone in a temporary folder cannot install a service from itself (the unit would point there). */
const cliLasts = volatilePlace(CLI) === null;
/** Nor one in a folder closed to other users (such as /root) a system service for another user. */
const othersReachCli = cliLasts && closedToOthers(CLI) === null && closedToOthers(realpathSync(process.execPath)) === null;

/** systemd-analyze verify on a unit file; '' when it found nothing to say. */
function verify(file: string, user: boolean): { status: number | null; output: string } {
  const runtime = tempFolder('cronbeat-runtime-');
  const result = spawnSync('systemd-analyze', ['verify', ...(user ? ['--user'] : []), file], {
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: runtime, SYSTEMD_LOG_LEVEL: 'warning' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

let serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves) await serve.stop();
  serves = [];
});

describe('cronbeat service install (systemd)', () => {
  it.skipIf(!hasAnalyze || !cliLasts)('writes a user unit that passes systemd-analyze verify, and says what to run where systemctl is missing', async () => {
    const root = tempFolder('cronbeat-service-');
    const dataDir = join(root, 'data with space');
    const result = await runCli(['service', 'install', '--user', '--data-dir', dataDir, '--', '--host', '0.0.0.0', '--allow-host', 'backup-box'], {
      env: { XDG_CONFIG_HOME: join(root, 'config'), PATH: join(root, 'empty-path'), USER: 'alice' },
    });
    const file = join(root, 'config', 'systemd', 'user', 'cronbeat.service');
    expect(result.stdout).toContain(`Wrote ${file}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      [
        'cronbeat: the service is not enabled: systemctl was not found on this machine. On a machine with systemd, run:',
        '  systemctl --user daemon-reload',
        '  systemctl --user enable cronbeat.service',
        '  systemctl --user restart cronbeat.service',
        '  loginctl enable-linger alice',
        '',
      ].join('\n'),
    );
    const unit = readFileSync(file, 'utf8');
    expect(unit).toMatch(new RegExp(`^ExecStart=${process.execPath} \\S+/dist/cronbeat\\.cjs serve --data-dir "${dataDir}" --host 0\\.0\\.0\\.0 --allow-host backup-box$`, 'm'));
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^StandardError=journal$/m);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
    expect(verify(file, true)).toEqual({ status: 0, output: '' });
  });

  it.skipIf(!hasAnalyze || !othersReachCli)('a system unit runs as a user, never root, may write only its data folder, and passes verify', async () => {
    const root = tempFolder('cronbeat-service-');
    const result = await runCli(['service', 'install', '--system', '--run-as', 'cronbeat', '--unit-dir', root], { env: { PATH: join(root, 'none') } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('  systemctl enable cronbeat.service\n  systemctl restart cronbeat.service\n');
    const unit = readFileSync(join(root, 'cronbeat.service'), 'utf8');
    expect(unit).toMatch(/^User=cronbeat$/m);
    expect(unit).toMatch(/^ProtectSystem=strict$/m);
    expect(unit).toMatch(/^StateDirectory=cronbeat$/m);
    expect(unit).toMatch(/serve --data-dir \/var\/lib\/cronbeat$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
    expect(verify(join(root, 'cronbeat.service'), false)).toEqual({ status: 0, output: '' });

    const asRoot = await runCli(['service', 'install', '--system', '--run-as', 'root', '--unit-dir', root]);
    expect(asRoot.status).toBe(2);
    expect(asRoot.stderr).toMatch(/must not run as root: say which user with --run-as NAME/);
  });

  it.skipIf(!hasAnalyze)('quotes what systemd would read as its own: spaces, % and $ reach the agent unchanged', () => {
    const root = tempFolder('cronbeat-service-');
    const spec: ServiceSpec = { scope: 'user', command: ['/bin/true', 'serve', '--allow-host', '100% $HOME "quoted"'], dataDir: join(root, 'a b') };
    const file = join(root, 'cronbeat.service');
    writeFileSync(file, systemdUnit(spec));
    expect(verify(file, true)).toEqual({ status: 0, output: '' });
    expect(readFileSync(file, 'utf8')).toContain('ExecStart=/bin/true serve --allow-host "100%% $$HOME \\"quoted\\""');
  });

  it.skipIf(!cliLasts)('status says when it is not installed, and when the installed agent answers its health check', async () => {
    const root = tempFolder('cronbeat-service-');
    const env = { XDG_CONFIG_HOME: root, PATH: join(root, 'none') };
    const before = await runCli(['service', 'status'], { env });
    expect(before.status).toBe(1);
    expect(before.stdout).toMatch(/^Not installed \(no .*cronbeat\.service\)\. Install it with `cronbeat service install`\./);

    const dataDir = tempFolder();
    const serve = await startServe(['--data-dir', dataDir]);
    serves.push(serve);
    const port = new URL(serve.url).port;
    await runCli(['service', 'install', '--data-dir', dataDir, '--', '--port', port], { env });
    const after = await runCli(['service', 'status'], { env });
    expect(after.stdout).toContain('(systemctl was not found: the service manager cannot be asked here)');
    expect(after.stdout).toContain(`http://127.0.0.1:${port}/api/health: 200 {"status":"ok"}`);
    expect(after.status).toBe(0);

    const removed = await runCli(['service', 'uninstall'], { env });
    expect(removed.status).toBe(1); // the file is gone, but nothing could stop the running service
    expect(removed.stderr).toBe('cronbeat: could not stop the service: systemctl was not found on this machine. Run:\n  systemctl --user disable --now cronbeat.service\n');
    expect(removed.stdout).toMatch(/^Removed .*cronbeat\.service \(the data folder .* is kept\)$/m);
    expect(existsSync(join(root, 'systemd', 'user', 'cronbeat.service'))).toBe(false);
    expect(existsSync(join(dataDir, 'cronbeat.db'))).toBe(true);
  }, 60_000);

  it('refuses mistakes in one line', async () => {
    expect((await runCli(['service'])).stderr).toMatch(/Say what to do: `cronbeat service install\|uninstall\|status`/);
    expect((await runCli(['service', 'install', '--user', '--system'])).stderr).toMatch(/Choose one of --user and --system/);
    const dataDirAfter = await runCli(['service', 'install', '--', '--data-dir', '/x']);
    expect(dataDirAfter.status).toBe(2);
    expect(dataDirAfter.stderr).toMatch(/before the --/);
  });
});

describe('cronbeat service install run from a package cache', () => {
  it('refuses to write a unit that points into npx\'s cache, and says how to install for good', async () => {
    // npx runs cronbeat from ~/.npm/_npx/HASH/node_modules/cronbeat: a copy of the bundle there
    // (outside any temporary folder, so the cache is the reason), its packages beside it.
    const home = resolve(__dirname, '../../.cronbeat-test/npx-home');
    rmSync(home, { recursive: true, force: true });
    const pkg = join(home, '.npm', '_npx', '4f2a9c', 'node_modules', 'cronbeat');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    for (const file of ['cronbeat.cjs', 'cronbeat-full.cjs']) copyFileSync(join(dirname(CLI), file), join(pkg, 'dist', file));
    symlinkSync(resolve(__dirname, '../../node_modules'), join(pkg, 'node_modules'));
    const unitDir = tempFolder('cronbeat-service-');
    const child = spawn(process.execPath, [join(pkg, 'dist', 'cronbeat.cjs'), 'service', 'install', '--user', '--unit-dir', unitDir], {
      env: cleanEnv({ HOME: home, PATH: join(unitDir, 'none') }),
    });
    const result = await finished(child);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `cronbeat: A service must not run ${join(pkg, 'dist', 'cronbeat.cjs')}: ${volatilePlace(pkg)}. ` +
        'Install Cronbeat where it stays: a clone of its repository after `npm install`, or the tarball `npm pack` makes there, ' +
        `installed with \`npm install -g ./cronbeat-${version}.tgz\`; then run \`cronbeat service install\` from there.\n`,
    );
    // Never the registry's `cronbeat`: the name there is not ours.
    expect(result.stderr).not.toMatch(/npm install -g cronbeat\b|npx cronbeat/);
    expect(existsSync(join(unitDir, 'cronbeat.service'))).toBe(false);
    rmSync(home, { recursive: true, force: true });
  }, 30_000);

  it('still uninstalls from there: removing a unit needs nothing to last', async () => {
    const root = tempFolder('cronbeat-service-');
    writeFileSync(join(root, 'cronbeat.service'), '[Service]\nExecStart=/bin/true\n');
    const result = await runCli(['service', 'uninstall', '--unit-dir', root], { env: { PATH: join(root, 'none') } });
    expect(result.stdout).toMatch(/^Removed .*cronbeat\.service/m);
    expect(existsSync(join(root, 'cronbeat.service'))).toBe(false);
  });
});

describe('cronbeat service install --system, run from a folder its user cannot read', () => {
  it.skipIf(!cliLasts)('refuses a unit whose user could not start node or the bundle (root\'s home, mode 700)', async () => {
    // As a global install by root under nvm: /root/.nvm/… where only root may look.
    const closed = resolve(__dirname, '../../.cronbeat-test/closed-home');
    rmSync(closed, { recursive: true, force: true });
    const pkg = join(closed, 'lib', 'node_modules', 'cronbeat');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    for (const file of ['cronbeat.cjs', 'cronbeat-full.cjs']) copyFileSync(join(dirname(CLI), file), join(pkg, 'dist', file));
    symlinkSync(resolve(__dirname, '../../node_modules'), join(pkg, 'node_modules'));
    chmodSync(closed, 0o700);
    const unitDir = tempFolder('cronbeat-service-');
    const child = spawn(process.execPath, [join(pkg, 'dist', 'cronbeat.cjs'), 'service', 'install', '--system', '--run-as', 'nobody', '--unit-dir', unitDir], {
      env: cleanEnv({ PATH: process.env.PATH }),
    });
    const result = await finished(child);
    rmSync(closed, { recursive: true, force: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `cronbeat: The service runs as nobody, who cannot read ${join(pkg, 'dist', 'cronbeat.cjs')}: ${closed} is closed to other users. ` +
        `Install node and Cronbeat where every user can read them (e.g. under /usr/local or /opt), or run \`chmod o+rx ${closed}\` if that is fine.\n`,
    );
    expect(existsSync(join(unitDir, 'cronbeat.service'))).toBe(false);
  }, 30_000);
});

describe('launchd plist (macOS)', () => {
  const spec: ServiceSpec = {
    scope: 'user',
    command: ['/usr/local/bin/node', '/Users/ann/cronbeat & co/dist/cronbeat.cjs', 'serve', '--allow-host', '<backup>'],
    dataDir: '/Users/ann/Library/Application Support/Cronbeat',
    logFile: '/Users/ann/Library/Logs/Cronbeat/agent.log',
  };

  it('is well-formed XML whose keys launchd reads: label, arguments, restart on failure, logs', () => {
    const text = launchdPlist(spec);
    expect(XMLValidator.validate(text)).toBe(true);
    const plist = new XMLParser({ preserveOrder: false }).parse(text).plist.dict;
    expect(plist.key).toEqual(['Label', 'ProgramArguments', 'EnvironmentVariables', 'RunAtLoad', 'KeepAlive', 'ThrottleInterval', 'StandardOutPath', 'StandardErrorPath']);
    expect(plist.string[0]).toBe('dev.cronbeat.agent');
    expect(plist.array.string).toEqual(spec.command);
    expect(plist.dict[0]).toEqual({ key: 'CRONBEAT_DATA_DIR', string: spec.dataDir });
    expect(plist.dict[1]).toEqual({ key: 'SuccessfulExit', false: '' });
  });

  it.skipIf(!hasXmllint)('passes xmllint', () => {
    const file = join(tempFolder('cronbeat-plist-'), 'dev.cronbeat.agent.plist');
    writeFileSync(file, launchdPlist({ ...spec, scope: 'system', user: 'cronbeat' }));
    expect(execFileSync('xmllint', ['--noout', '--nonet', file], { encoding: 'utf8' })).toBe('');
  });
});

