/** `npm start` where Electron cannot run, as a real child process: one line, then the headless agent. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'cronbeat-launch-'));
// The launcher runs from a scratch project holding links to the real builds and no sources, so it
// finds nothing stale and never rebuilds dist/ under tests running beside it (npm test builds first).
const project = mkdtempSync(join(tmpdir(), 'cronbeat-launch-project-'));
mkdirSync(join(project, 'dist'));
symlinkSync(join(root, 'dist', 'cronbeat.cjs'), join(project, 'dist', 'cronbeat.cjs'));
symlinkSync(join(root, 'dist', 'renderer'), join(project, 'dist', 'renderer'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

describe('npm start without a display', () => {
  it('says why in one line, runs the headless agent with its sign-in link, and stops on Ctrl-C', async () => {
    await build({ entryPoints: [join(root, 'main/launch/run.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: join(project, 'dist/launch.cjs'), logLevel: 'silent' });
    const env: NodeJS.ProcessEnv = { ...process.env, CRONBEAT_DATA_DIR: dataDir };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const launcher = spawn(process.execPath, [join(project, 'dist/launch.cjs'), '--port', '0'], { cwd: project, env });
    let stdout = '';
    let stderr = '';
    launcher.stdout.on('data', (chunk) => (stdout += chunk));
    launcher.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => launcher.on('exit', (code) => done(code)));

    const url = await new Promise<string>((done, fail) => {
      const timer = setInterval(() => {
        const match = /Cronbeat listening on (http:\/\/\S+)/.exec(stdout);
        if (match) {
          clearInterval(timer);
          done(match[1]);
        }
      }, 50);
      launcher.on('exit', () => fail(new Error(`exited early: ${stdout}${stderr}`)));
    });
    const lines = stdout.split('\n').filter((line) => line.startsWith('Cronbeat'));
    expect(lines[0]).toBe(
      'Cronbeat: the desktop app cannot start because there is no display (DISPLAY and WAYLAND_DISPLAY are unset); running the headless agent instead (open the sign-in link below in a browser).',
    );
    expect(stdout).toMatch(/Open the dashboard .*: http:\/\/127\.0\.0\.1:\d+\/#\/sign-in\?code=/);
    expect(stdout + stderr).not.toMatch(/\n\s+at /);
    expect((await fetch(`${url}/api/monitors`)).status).toBe(401);

    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/api/monitors`)).rejects.toThrow();
  }, 60_000);
});
