import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { launchdPlist, systemdUnit, UnitValueError, type ServiceSpec } from '../../agent/cli/service/units';
import { runCli, tempFolder } from '../helpers/cli';
import { xmlProblem } from '../helpers/xml';

/*
 * What `cronbeat service install` writes says exactly what the user passed: a path with spaces,
 * `%`, `$`, quotes and backslashes reaches systemd (checked by systemd-analyze verify, which
 * looks for the program the unit names) and launchd (a well-formed property list) unchanged, and
 * a control character in any value (a line break would be a directive of its own) is a usage
 * error before anything is written.
 */

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

function verify(file: string, user: boolean): { status: number | null; output: string } {
  const result = spawnSync('systemd-analyze', ['verify', ...(user ? ['--user'] : []), file], {
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: tempFolder('cronbeat-runtime-'), SYSTEMD_LOG_LEVEL: 'warning' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** A folder name with everything systemd reads as its own: a space, a specifier, a variable, quotes, a backslash. */
const AWKWARD = `a b %h $HOME "q" 'a' \\b ; end`;

describe('systemd unit values', () => {
  it.skipIf(!hasAnalyze)('the program may sit in a folder with spaces, % and $: systemd finds it where it is', () => {
    // systemd-analyze verify checks that the program ExecStart names exists: it reads the path back as systemd would.
    const root = tempFolder('cronbeat-unit-');
    const folder = join(root, 'node 100% $HOME');
    mkdirSync(folder);
    const node = join(folder, 'node');
    symlinkSync(process.execPath, node);
    const file = join(root, 'cronbeat.service');
    writeFileSync(file, systemdUnit({ scope: 'user', command: [node, '/opt/cronbeat.cjs', 'serve'], dataDir: join(root, 'data') }));
    expect(verify(file, true)).toEqual({ status: 0, output: '' });
    expect(readFileSync(file, 'utf8')).toContain(`ExecStart="${root}/node 100%% $HOME/node" /opt/cronbeat.cjs serve`);
  });

  it.skipIf(!hasAnalyze)('a data folder with spaces, %, $, quotes and backslashes: ExecStart doubles $, Environment does not', () => {
    const root = tempFolder('cronbeat-unit-');
    const dataDir = join(root, AWKWARD);
    const spec: ServiceSpec = { scope: 'user', command: ['/bin/true', 'serve', '--data-dir', dataDir], dataDir };
    const file = join(root, 'cronbeat.service');
    writeFileSync(file, systemdUnit(spec));
    expect(verify(file, true)).toEqual({ status: 0, output: '' });
    const unit = readFileSync(file, 'utf8');
    const escaped = `${root}/a b %%h $HOME \\"q\\" 'a' \\\\b ; end`;
    expect(unit).toContain(`ExecStart=/bin/true serve --data-dir "${escaped.replace('$HOME', '$$$$HOME')}"\n`);
    expect(unit).toContain(`Environment="CRONBEAT_DATA_DIR=${escaped}"\n`);
  });

  it.skipIf(!hasAnalyze)('a system unit may write a data folder with quotes in it (ReadWritePaths has no escapes)', () => {
    const root = tempFolder('cronbeat-unit-');
    for (const dataDir of [`/srv/cron beat/da"ta %i`, `/srv/it's`]) {
      const file = join(root, 'cronbeat.service');
      writeFileSync(file, systemdUnit({ scope: 'system', user: 'cronbeat', command: ['/bin/true', 'serve'], dataDir }));
      expect(verify(file, false)).toEqual({ status: 0, output: '' });
    }
    expect(readFileSync(join(root, 'cronbeat.service'), 'utf8')).toContain(`ReadWritePaths="/srv/it's"\n`);
    expect(() => systemdUnit({ scope: 'system', user: 'cronbeat', command: ['/bin/true'], dataDir: `/srv/"it's"` })).toThrow(UnitValueError);
    expect(() => systemdUnit({ scope: 'system', user: 'cron beat', command: ['/bin/true'], dataDir: '/srv/x' })).toThrow(UnitValueError);
  });

  it('refuses control characters in every value', () => {
    for (const spec of [
      { scope: 'user', command: ['/bin/true', 'serve', '--allow-host', 'a\nExecStartPre=/bin/sh -c id'], dataDir: '/srv/x' },
      { scope: 'user', command: ['/bin/true'], dataDir: '/srv/x\nExecStartPre=/bin/sh' },
      { scope: 'system', user: 'cronbeat', command: ['/bin/true'], dataDir: '/srv/x\u001b' },
    ] satisfies ServiceSpec[]) {
      expect(() => systemdUnit(spec), JSON.stringify(spec)).toThrow(UnitValueError);
      expect(() => launchdPlist(spec), JSON.stringify(spec)).toThrow(UnitValueError);
    }
  });
});

describe('launchd property list values', () => {
  it('says exactly what was passed, and stays well-formed XML', () => {
    const spec: ServiceSpec = { scope: 'system', user: 'cronbeat', command: ['/usr/local/bin/node', `/opt/${AWKWARD}/cronbeat.cjs`, 'serve', '--allow-host', '<a&b>'], dataDir: `/srv/${AWKWARD}`, logFile: `/var/log/${AWKWARD}.log` };
    const text = launchdPlist(spec);
    expect(xmlProblem(text)).toBeNull();
    const plist = new XMLParser({ processEntities: true, htmlEntities: true }).parse(text).plist.dict;
    expect(plist.array.string).toEqual(spec.command);
    expect(plist.dict[0]).toEqual({ key: 'CRONBEAT_DATA_DIR', string: spec.dataDir });
  });
});

describe('cronbeat service install', () => {
  it('a control character in --data-dir, --run-as or a serve flag is a usage error, and nothing is written', async () => {
    const root = tempFolder('cronbeat-service-');
    const env = { XDG_CONFIG_HOME: join(root, 'config'), PATH: join(root, 'none') };
    const cases: Array<[string[], string]> = [
      [['--data-dir', `${root}/data\nExecStartPre=/bin/sh -c id`], '--data-dir must not contain control characters (it has a line break (U+000A)).'],
      [['--system', '--run-as', 'cron\nbeat', '--unit-dir', root], '--run-as must not contain control characters (it has a line break (U+000A)).'],
      [['--', '--allow-host', 'box\rEnvironment=X=1'], 'A flag after -- must not contain control characters (it has a carriage return (U+000D)).'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['service', 'install', ...args], { env });
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toBe(`cronbeat: ${message}\n`);
    }
    expect(existsSync(join(root, 'config'))).toBe(false);
    expect(existsSync(join(root, 'cronbeat.service'))).toBe(false);
  });
});
