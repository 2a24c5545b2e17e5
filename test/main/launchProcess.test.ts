/**
 * `npm start` as a real child process. It runs from a scratch project holding links to the real
 * builds and no sources, so it finds nothing stale and never rebuilds dist/ under tests running
 * beside it (npm test builds first). A fake Electron there records how it was started.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'cronbeat-launch-'));
const project = join(scratch, 'project');
const dataDir = join(scratch, 'data');
const electronRecord = join(scratch, 'electron-started.txt');
const electronVersion = (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  mkdirSync(join(project, 'dist'), { recursive: true });
  for (const built of ['cronbeat.cjs', 'renderer', 'main']) symlinkSync(join(root, 'dist', built), join(project, 'dist', built));
  // A stand-in Electron: records its arguments and the binding it was given, exits with FAKE_EXIT.
  const electronDir = join(project, 'node_modules', 'electron');
  mkdirSync(join(electronDir, 'dist'), { recursive: true });
  writeFileSync(join(electronDir, 'package.json'), JSON.stringify({ version: electronVersion }));
  writeFileSync(join(electronDir, 'install.js'), 'process.exit(1);\n');
  writeFileSync(join(electronDir, 'path.txt'), 'electron');
  writeFileSync(join(electronDir, 'dist', 'electron'), `#!/bin/sh\necho "$@ $CRONBEAT_SQLITE_BINDING" > "${electronRecord}"\nexit "$FAKE_EXIT"\n`);
  chmodSync(join(electronDir, 'dist', 'electron'), 0o755);
  const binding = join(project, 'node_modules', '.cache', 'cronbeat', `electron-${electronVersion}-${process.platform}-${process.arch}`, 'node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(binding, { recursive: true });
  writeFileSync(join(binding, 'better_sqlite3.node'), '');
  await build({ entryPoints: [join(root, 'main/launch/run.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: join(project, 'dist/launch.cjs'), logLevel: 'silent' });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function launch(env: Record<string, string | undefined>) {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, CRONBEAT_DATA_DIR: dataDir, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete fullEnv[key];
  const child = spawn(process.execPath, [join(project, 'dist/launch.cjs'), '--port', '0'], { cwd: project, env: fullEnv });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const listening = new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const match = /Cronbeat listening on (http:\/\/\S+)/.exec(output.stdout);
      if (match) {
        clearInterval(timer);
        done(match[1]);
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(timer);
      fail(new Error(`exited without listening: ${output.stdout}${output.stderr}`));
    });
  });
  listening.catch(() => {});
  return { child, output, exited, listening };
}

const cronbeatLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('Cronbeat'));

describe('npm start', () => {
  it('without a display says why in one line, runs the headless agent with its sign-in link, and stops on Ctrl-C', async () => {
    const run = launch({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    const url = await run.listening;
    expect(cronbeatLines(run.output.stdout)[0]).toBe(
      'Cronbeat: the desktop app cannot start because there is no display (DISPLAY and WAYLAND_DISPLAY are unset); running the headless agent instead (open the sign-in link below in a browser).',
    );
    expect(run.output.stdout).toMatch(/Open the dashboard .*: http:\/\/127\.0\.0\.1:\d+\/#\/sign-in\?code=/);
    expect(run.output.stdout + run.output.stderr).not.toMatch(/\n\s+at /);
    expect((await fetch(`${url}/api/monitors`)).status).toBe(401);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    await expect(fetch(`${url}/api/monitors`)).rejects.toThrow();
  }, 60_000);

  it('with a display starts Electron on the project with its own better-sqlite3 build, and ends with it', async () => {
    rmSync(electronRecord, { force: true });
    const run = launch({ DISPLAY: ':0', FAKE_EXIT: '0' });
    expect(await run.exited).toBe(0);
    const [appPath, ...rest] = readFileSync(electronRecord, 'utf8').trim().split(' ');
    expect(appPath).toBe(project);
    expect(rest.at(-1)).toMatch(/\.cache\/cronbeat\/electron-.*\/better_sqlite3\.node$/);
    expect(run.output.stdout).not.toContain('headless');
  });

  it('runs the headless agent when Electron dies at start', async () => {
    const run = launch({ DISPLAY: ':0', FAKE_EXIT: '1' });
    const url = await run.listening;
    expect(cronbeatLines(run.output.stdout)[0]).toBe(
      'Cronbeat: the desktop app cannot start because Electron exited at start (code 1); running the headless agent instead (open the sign-in link below in a browser).',
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    await expect(fetch(`${url}/api/monitors`)).rejects.toThrow();
  }, 60_000);
});
