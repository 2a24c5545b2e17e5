import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { volatilePlace } from '../../agent/cli/crontab/shim';
import { CLI, runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';

/** A clone in a temporary folder cannot install a service from itself (the unit would point there). */
const cliLasts = volatilePlace(CLI) === null;

let serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves) await serve.stop();
  serves = [];
});

describe('cronbeat service status checks the address the service was installed with', () => {
  it.skipIf(!cliLasts)('asks the agent at the --host and --port given to install, not at 127.0.0.1', async () => {
    const root = tempFolder('cronbeat-service-');
    const env = { XDG_CONFIG_HOME: root, PATH: join(root, 'none') };
    const dataDir = tempFolder();
    const serve = await startServe(['--host', '127.0.0.2', '--data-dir', dataDir]);
    serves.push(serve);
    const port = new URL(serve.url).port;
    expect((await runCli(['service', 'install', '--data-dir', dataDir, '--', '--host=127.0.0.2', '--port', port], { env })).status).toBe(1);
    expect(existsSync(join(root, 'systemd', 'user', '.cronbeat.service.json'))).toBe(true);
    const status = await runCli(['service', 'status'], { env });
    expect(status.stdout).toContain(`http://127.0.0.2:${port}/api/health: 200 {"status":"ok"}`);
    expect(status.status).toBe(0);
    await runCli(['service', 'uninstall'], { env });
    expect(existsSync(join(root, 'systemd', 'user', '.cronbeat.service.json'))).toBe(false);
  }, 60_000);

  it('refuses serve flags the agent would refuse, before writing anything', async () => {
    const root = tempFolder('cronbeat-service-');
    const result = await runCli(['service', 'install', '--', '--prot', '9000'], { env: { XDG_CONFIG_HOME: root, PATH: join(root, 'none') } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^cronbeat: .*--prot/);
    expect(existsSync(join(root, 'systemd', 'user', 'cronbeat.service'))).toBe(false);
  });

  it('says a flag serve would refuse in the words serve says it, with the flag it is close to', async () => {
    const root = tempFolder('cronbeat-service-');
    const env = { XDG_CONFIG_HOME: root, PATH: join(root, 'none') };
    const misspelt = await runCli(['service', 'install', '--', '--prot', '9000'], { env });
    expect(misspelt.stderr).toContain('cronbeat serve has no option --prot. Did you mean --port?');
    const noValue = await runCli(['service', 'install', '--', '--port'], { env });
    expect(noValue.stderr).toContain('--port needs a value: --port VALUE (or --port=VALUE).');
    expect([misspelt.status, noValue.status]).toEqual([2, 2]);
    expect(existsSync(join(root, 'systemd', 'user', 'cronbeat.service'))).toBe(false);
  });
});
