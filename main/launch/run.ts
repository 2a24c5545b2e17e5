/**
 * `npm start`: builds what is stale, then opens the desktop app, or runs the headless agent where
 * Electron cannot run (printing why in one line). Bundled to dist/launch.cjs; plain Node, no Electron.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILD_STEPS, type BuildStep } from './builds';
import { chooseLaunch, electronFailedAtStart, fallbackMessage, hasDisplay, isStale } from './decision';
import { describeError } from '../../agent/domain/text/errorText';

const root = resolve(__dirname, '..');
const passArgs = process.argv.slice(2);
const say = (line: string) => console.log(`Cronbeat: ${line}`);

function mtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** The newest modification time under `path` (a file or a folder), node_modules and dist aside. */
function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function runNpmScript(script: string): boolean {
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', script], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0;
}

function buildStale(steps: BuildStep[]): void {
  for (const step of steps) {
    const newest = Math.max(...step.sources.map((source) => newestMtime(join(root, source))));
    if (!isStale(mtime(join(root, step.output)), newest)) continue;
    if (!runNpmScript(step.script)) {
      say(`\`npm run ${step.script}\` failed (see above); nothing was started.`);
      process.exit(1);
    }
  }
}

const electronDir = join(root, 'node_modules', 'electron');

/** The Electron executable if it is installed (node_modules/electron/path.txt names it). */
function installedElectron(): string | null {
  try {
    const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist');
    const binary = join(dist, relative);
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Electron's own installer downloads its binary on first use; its errors are kept out of sight. */
function electronBinary(): string | null {
  if (!existsSync(join(electronDir, 'install.js'))) return null;
  const installed = installedElectron();
  if (installed) return installed;
  say('downloading Electron (first start only)…');
  spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'ignore', timeout: 10 * 60_000 });
  return installedElectron();
}

/**
 * better-sqlite3 compiled for Electron's ABI, kept apart from the Node build that tests and the
 * headless agent use: a copy of the package under node_modules/.cache, given Electron's prebuilt
 * binary (prebuild-install), else compiled against Electron's headers (@electron/rebuild).
 */
function electronSqliteBinding(electronVersion: string): string | null {
  const cacheRoot = join(root, 'node_modules', '.cache', 'cronbeat', `electron-${electronVersion}-${process.platform}-${process.arch}`);
  const dir = join(cacheRoot, 'node_modules', 'better-sqlite3');
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  const source = join(root, 'node_modules', 'better-sqlite3');
  cpSync(source, dir, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) });
  writeFileSync(join(cacheRoot, 'package.json'), JSON.stringify({ private: true, dependencies: { 'better-sqlite3': '*' } }));
  say('preparing better-sqlite3 for Electron (first start only)…');
  const quiet = { stdio: 'ignore', timeout: 10 * 60_000 } as const;
  const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js');
  spawnSync(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch], { ...quiet, cwd: dir });
  if (existsSync(binding)) return binding;
  const rebuild = join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js');
  spawnSync(process.execPath, [rebuild, '--version', electronVersion, '--module-dir', cacheRoot, '--only', 'better-sqlite3', '--force'], { ...quiet, cwd: cacheRoot });
  return existsSync(binding) ? binding : null;
}

/** Runs a child in its own process group and hands it each stop signal exactly once. */
function supervise(child: ChildProcess, onExit: (code: number | null, signal: NodeJS.Signals | null) => void): void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    onExit(code, signal);
  });
}

function runHeadless(): void {
  const child = spawn(process.execPath, [join(root, 'dist', 'cronbeat.cjs'), 'serve', ...passArgs], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    // Its own process group on POSIX, so a Ctrl-C reaches it once (forwarded), not twice.
    detached: process.platform !== 'win32',
  });
  supervise(child, (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

function runElectron(binary: string, sqliteBinding: string): void {
  const started = Date.now();
  const child = spawn(binary, [root, ...passArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CRONBEAT_SQLITE_BINDING: sqliteBinding },
    detached: process.platform !== 'win32',
  });
  child.on('error', () => {
    console.log(fallbackMessage('Electron could not be started'));
    runHeadless();
  });
  supervise(child, (code, signal) => {
    if (electronFailedAtStart(code, signal, Date.now() - started)) {
      console.log(fallbackMessage(`Electron exited at start (code ${code})`));
      runHeadless();
      return;
    }
    process.exit(code ?? 0);
  });
}

function main(): void {
  const display = hasDisplay(process.platform, process.env);
  buildStale(BUILD_STEPS.filter((step) => !step.desktopOnly || display));
  const plan = chooseLaunch({
    platform: process.platform,
    env: process.env,
    electronBinary: display && process.env.CRONBEAT_HEADLESS !== '1' ? electronBinary() : null,
  });
  if (plan.mode === 'headless') {
    console.log(fallbackMessage(plan.reason));
    runHeadless();
    return;
  }
  const electronVersion = (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }).version;
  const binding = electronSqliteBinding(electronVersion);
  if (!binding) {
    console.log(fallbackMessage('better-sqlite3 could not be built for Electron (it needs network once)'));
    runHeadless();
    return;
  }
  runElectron(plan.binary, binding);
}

try {
  main();
} catch (error) {
  console.log(fallbackMessage(`of an unexpected error (${describeError(error)})`));
  runHeadless();
}
