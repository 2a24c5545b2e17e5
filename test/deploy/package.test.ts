import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/cli';

/*
 * The package a user installs: `npm pack`, then `npm install -g ./cronbeat-X.Y.Z.tgz` into an
 * empty prefix, then the installed `cronbeat` as a user runs it (its --version, serve with the
 * dashboard at /, a token, a ping from the CLI).
 *
 * What this proves: the tarball holds what the agent needs (the bundle, the built dashboard, the
 * docs) and nothing of the sources; its `bin` is linked and runs; its `dependencies` are all it
 * needs at run time, installed by npm from the registry (here: from npm's cache, --prefer-offline).
 * What it does not: two shortcuts keep it within the suite's time, both to leave the repository's
 * dist/ alone while other tests run it.
 *  - It packs with --ignore-scripts the dist/ that `npm test` built, rather than letting `prepack`
 *    build it again (the same two build scripts).
 *  - It installs with --ignore-scripts, so better-sqlite3 is not compiled (about 90 s of CPU):
 *    the addon this checkout's `npm install` compiled for the same better-sqlite3 version and the
 *    same Node is copied in; if the versions differ, it is compiled for real (`npm rebuild`).
 * A full install, better-sqlite3 compiled from source, was run by hand (docs/deploy.md).
 */

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
// npm from the Node running the tests, whatever PATH the suite was started with.
const NPM = existsSync(join(dirname(process.execPath), 'npm')) ? join(dirname(process.execPath), 'npm') : 'npm';
/** The environment without the npm_* variables of an `npm test` around us, which would point npm at this checkout. */
const npmEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});
const npm = (args: string[], cwd: string) => run(NPM, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: npmEnv() });

let work: string;
let prefix: string;
let tarball: string;
let packed: string[];
let cronbeat: string;

beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist', 'cronbeat.cjs')), 'run `npm run build` first').toBe(true);
  expect(existsSync(join(ROOT, 'dist', 'renderer', 'index.html')), 'run `npm run build` first').toBe(true);
  work = tempFolder('cronbeat-package-');
  prefix = join(work, 'prefix');
  const { stdout } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  const [report] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, report.filename);
  packed = report.files.map((f) => f.path);

  // --prefix moves npm's global config (<prefix>/etc/npmrc) with it: keep the machine's, where a
  // registry's CA or proxy may be set (a fresh machine has no cached metadata to fall back on).
  const globalConfig = (await npm(['config', 'get', 'globalconfig'], ROOT)).stdout.trim();
  await npm(['install', '-g', tarball, '--prefix', prefix, '--globalconfig', globalConfig, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], work);
  const installed = join(prefix, 'lib', 'node_modules', pkg.name);
  const sqlite = join(installed, 'node_modules', 'better-sqlite3');
  const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const ours = join(ROOT, 'node_modules', 'better-sqlite3');
  if (version(sqlite) === version(ours)) {
    mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true });
    copyFileSync(join(ours, 'build', 'Release', 'better_sqlite3.node'), join(sqlite, 'build', 'Release', 'better_sqlite3.node'));
  } else {
    await npm(['rebuild', 'better-sqlite3'], installed);
  }
  cronbeat = join(prefix, 'bin', 'cronbeat');
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it(`is ${pkg.name}-${pkg.version}.tgz and holds the bundle, the built dashboard, the docs and the notices, no sources`, () => {
    expect(tarball.endsWith(`${pkg.name}-${pkg.version}.tgz`)).toBe(true);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'dist/cronbeat.cjs', 'dist/cronbeat-full.cjs', 'dist/renderer/index.html', 'docs/deploy.md']) {
      expect(packed, file).toContain(file);
    }
    expect(packed.some((file) => file.startsWith('dist/renderer/assets/') && file.endsWith('.js'))).toBe(true);
    const sources = packed.filter((file) => /^(agent|renderer|main|test|node_modules)\//.test(file) || file.endsWith('.ts') || file.endsWith('.tsx'));
    expect(sources).toEqual([]);
    // Nor the desktop app, which only runs inside Electron, whether or not this checkout built it
    // (`npm test` has): npm packs whatever package.json's `main` names, so it names none.
    expect(existsSync(join(ROOT, 'dist', 'main', 'main.cjs')), 'run `npm run build` first').toBe(true);
    expect(packed.filter((file) => file.startsWith('dist/main/') || file === 'index.js' || file.endsWith('.map'))).toEqual([]);
  });

  it('installs a `cronbeat` on the prefix’s bin that prints the version', async () => {
    expect(realpathSync(cronbeat)).toBe(join(realpathSync(prefix), 'lib', 'node_modules', pkg.name, 'dist', 'cronbeat.cjs'));
    const { stdout } = await run(cronbeat, ['--version']);
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  it('serves the API and the dashboard, and takes a ping from its own CLI', async () => {
    const dataDir = join(work, 'data');
    const token = (await run(cronbeat, ['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const serve: ChildProcess = spawn(cronbeat, ['serve', '--port', '0', '--no-popups', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((done) => serve.once('exit', done));
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        createInterface({ input: serve.stdout! }).on('line', (line) => {
          const match = /^Cronbeat listening on (http:\/\/\S+)$/.exec(line);
          if (match) resolveUrl(match[1]);
        });
        serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });

      const page = await fetch(url + '/');
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>Cronbeat</title>');
      const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${url}/${script}`)).status).toBe(200);

      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const monitor = (await (
        await fetch(url + '/api/monitors', { method: 'POST', headers, body: JSON.stringify({ name: 'packaged', timezone: 'UTC', schedule: '0 2 * * *', duration: 30 }) })
      ).json()) as { id: number; token: string };
      await run(cronbeat, ['ping', monitor.token, '--url', url]);
      const pulses = (await (await fetch(`${url}/api/monitors/${monitor.id}/pulses`, { headers })).json()) as { data: Array<{ kind: string }> };
      expect(pulses.data.map((p) => p.kind)).toEqual(['success']);
    } finally {
      serve.kill('SIGTERM');
      await exited;
    }
  });
});
