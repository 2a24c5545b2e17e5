/**
 * `npm run dist`: builds, runs electron-builder (extra arguments passed on, e.g. --linux or
 * -c.electronDist=PATH), then always rebuilds better-sqlite3 for Node. electron-builder rebuilds
 * it in place for Electron, which would break `npm test` and the headless agent until restored.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const npm = process.env.npm_execpath;

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' && command === 'npm' });
  return result.status ?? 1;
}
const runNpm = (args: string[]) => (npm ? run(process.execPath, [npm, ...args]) : run('npm', args));

if (runNpm(['run', '--silent', 'build']) !== 0) process.exit(1);
const builder = join(root, 'node_modules', 'electron-builder', 'cli.js');
const status = run(process.execPath, [builder, '--config', 'electron-builder.yml', '--publish', 'never', ...process.argv.slice(2)]);
console.log('Cronbeat: restoring better-sqlite3 for Node (electron-builder rebuilt it for Electron)…');
const restored = runNpm(['rebuild', 'better-sqlite3']);
process.exit(status !== 0 ? status : restored);
